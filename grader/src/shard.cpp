// Shards of a class and the merge of their gradebooks (shard.hpp).
#include "shard.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <stdexcept>

#include "class_report.hpp"

namespace banklab::grader {

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  auto whole = [&](const std::string& part) {
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument("--shard " + text + ": expected K/N with whole numbers 1 <= K <= N (e.g. 2/4)");
    }
    return std::stoi(part);
  };
  if (slash == std::string::npos) {
    throw std::invalid_argument("--shard " + text + ": expected K/N, the K-th of N shares (e.g. 2/4)");
  }
  const Shard shard{whole(text.substr(0, slash)), whole(text.substr(slash + 1))};
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    throw std::invalid_argument("--shard " + text + ": K must be between 1 and N (shares are counted from 1)");
  }
  return shard;
}

std::vector<Submission> shard_of(const std::vector<Submission>& all, const std::optional<Shard>& shard) {
  if (!shard) return all;
  std::vector<Submission> mine;
  for (std::size_t i = static_cast<std::size_t>(shard->index - 1); i < all.size();
       i += static_cast<std::size_t>(shard->count))
    mine.push_back(all[i]);
  return mine;
}

int merge_gradebooks(const std::vector<std::string>& gradebooks, const std::string& out) {
  std::map<std::string, std::pair<nlohmann::json, std::string>> rows;  // student -> (row, its gradebook)
  nlohmann::json first;
  std::string first_path;
  nlohmann::json changes = nlohmann::json::array();  // what each shard's reruns changed
  try {
    for (const std::string& given : gradebooks) {
      const nlohmann::json book = read_gradebook(given);
      const std::string path = book["path"].get<std::string>();
      if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0) {
        throw std::runtime_error(path + ": a CSV gradebook lacks the files' hashes and the seed; merge the .json "
                                        "files that --submissions wrote beside it");
      }
      for (const char* key : {"lab", "seed", "backend"}) {
        if (!book.contains(key)) throw std::runtime_error(path + ": not a gradebook of --submissions (no \"" + key + "\")");
      }
      if (first.is_null()) {
        first = book;
        first_path = path;
      }
      for (const char* key : {"lab", "seed", "backend"}) {
        if (book[key] != first[key]) {
          throw std::runtime_error(path + " has " + key + " " + book[key].dump() + " but " + first_path + " has " +
                                   first[key].dump() +
                                   ": shards of one class are graded for one lab, with one --seed, on one backend "
                                   "(the students must get the same inputs); grade the odd one again with "
                                   "--seed " + first["seed"].dump());
        }
      }
      if (book.contains("changes") && book["changes"].is_array()) {
        for (const auto& change : book["changes"]) changes.push_back(change);
      }
      std::size_t count = 0;
      for (const auto& row : book["submissions"]) {
        const std::string student = row.at("student").get<std::string>();
        const auto found = rows.find(student);
        ++count;
        if (found != rows.end()) {
          // The same grade of the same file (a shard run twice) is one row.
          if (found->second.first.value("sha", "") == row.value("sha", "") &&
              found->second.first["score"] == row["score"] && row.contains("sha"))
            continue;
          throw std::runtime_error("student " + student + " is in " + found->second.second + " and in " + path +
                                   " with different grades: merge each shard once (the shards of --shard K/N of one "
                                   "folder never share a student)");
        }
        rows[student] = {row, path};
      }
      std::cerr << "grader: " << path << ": " << count << " rows\n";
    }
  } catch (const std::exception& error) {
    std::cerr << "grader: error: --merge " << error.what() << "\n";
    return 2;
  }
  std::vector<nlohmann::json> merged;
  for (const auto& [student, entry] : rows) merged.push_back(entry.first);  // sorted by student, as a batch writes
  try {
    write_gradebook(merged, out, first["lab"].get<int>(), first["seed"].get<std::uint64_t>(),
                    first["backend"].get<std::string>(), changes);
  } catch (const std::exception& error) {
    std::cerr << "grader: error: --merge: " << error.what() << "\n";
    return 2;
  }
  std::cout << "gradebook: " << out << ".csv and " << out << ".json (" << merged.size() << " submissions from "
            << gradebooks.size() << " gradebooks)\n";
  return 0;
}

}  // namespace banklab::grader
