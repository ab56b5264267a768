// Spreading a class over several machines: --shard K/N grades a fixed share
// of the submissions, and --merge joins the shards' gradebooks into one.
#pragma once

#include <string>
#include <vector>

#include "batch.hpp"

namespace banklab::grader {

/// "K/N": the K-th of N shares (1 <= K <= N); throws std::invalid_argument
/// with what is wrong.
Shard parse_shard(const std::string& text);

/// The submissions of shard K/N: of the class sorted by student, every N-th
/// one from the K-th (the same share on every machine that lists the same
/// folder; the shares differ in size by one at most).
std::vector<Submission> shard_of(const std::vector<Submission>& all, const std::optional<Shard>& shard);

/// Joins gradebooks (PATH.json, of one lab graded with one seed on one
/// backend) into OUT.csv and OUT.json; a student in two of them is an error
/// unless both rows are the same grade of the same file. Returns the exit
/// status (0, or 2 with a message naming the gradebook).
int merge_gradebooks(const std::vector<std::string>& gradebooks, const std::string& out);

}  // namespace banklab::grader
