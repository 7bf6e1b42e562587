#pragma once
// The host-only side of seis-bench: command line, table, JSON and CSV. Never compiled by a device compiler.
#include <iosfwd>
#include <optional>

#include "bench_types.hpp"

namespace seis::bench {

// Parses the command line; returns an exit code to stop with (help, bad option), or nothing to go on.
// An exit code where the program should stop at once (--help, --version: `version` is its line; a bad flag).
std::optional<int> parse_command_line(int argc, char** argv, Config& config, const std::string& version = "");

void print_variants(std::ostream& out, const std::vector<VariantInfo>& variants);
void print_report(std::ostream& out, const Report& report);
void write_json(const std::string& path, const Report& report);
void write_csv(const std::string& path, const Report& report);

}  // namespace seis::bench
