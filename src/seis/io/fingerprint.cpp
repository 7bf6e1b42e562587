#include "seis/io/fingerprint.hpp"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

namespace seis::io {

namespace {

std::vector<std::pair<std::string, std::string>> fields(const std::string& fingerprint) {
  std::istringstream in(fingerprint);
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string line; std::getline(in, line);) {
    const auto space = line.find(' ');
    out.push_back({line.substr(0, space), space == std::string::npos ? "" : line.substr(space + 1)});
  }
  return out;
}

}  // namespace

std::string fingerprint_difference(const std::string& stored, const std::string& mine, const std::string& where) {
  const auto a = fields(stored), b = fields(mine);
  std::ostringstream out;
  for (const auto& field : b) {
    // Not a structured binding: C++17 lets no lambda capture one (clang refuses, GCC allows).
    const std::string &key = field.first, &value = field.second;
    const auto it = std::find_if(a.begin(), a.end(), [&](const auto& f) { return f.first == key; });
    const std::string theirs = it == a.end() ? "(absent)" : it->second;
    if (theirs == value) continue;
    out << (out.tellp() > 0 ? "; " : "") << key;
    if (value.size() + theirs.size() < 120) {
      out << ": " << theirs << " in " << where << ", " << value << " here";
    } else {
      // A long value (a shot's positions and data): the first word that differs, after the word before it.
      std::istringstream a_words(theirs), b_words(value);
      std::string label, a_word, b_word;
      while ((a_words >> a_word) && (b_words >> b_word) && a_word == b_word) label = a_word;
      out << ": after '" << label << "', " << (a_word.size() < 60 ? a_word : a_word.substr(0, 57) + "...") << " in "
          << where << ", " << (b_word.size() < 60 ? b_word : b_word.substr(0, 57) + "...") << " here";
    }
  }
  // Keys the stored one has and this run's lacks (a fingerprint of another version).
  for (const auto& field : a) {
    const std::string& key = field.first;
    if (std::none_of(b.begin(), b.end(), [&](const auto& f) { return f.first == key; }))
      out << (out.tellp() > 0 ? "; " : "") << key << " (only in " << where << ")";
  }
  return out.str();
}

}  // namespace seis::io
