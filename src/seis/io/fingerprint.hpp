#pragma once
// A fingerprint: the parameters that shape a result, one "key value" line each, kept with the result (a checkpoint,
// a survey's shot record, a migration's partial stack) so that a restart with other parameters is refused, naming
// what changed. Host-only.
#include <string>

namespace seis::io {

// The keys whose values differ between a stored fingerprint and this run's, "key: THEIRS in WHERE, MINE here" where
// both are short, joined by "; "; empty where they agree.
std::string fingerprint_difference(const std::string& stored, const std::string& mine, const std::string& where);

}  // namespace seis::io
