// Writing tidy tables (tidy_tables.hpp) to a directory, in one of three forms:
//   csv     metrics.csv and final.csv (non-finite values as nan, inf, -inf)
//   jsonl   metrics.jsonl and final.jsonl, one JSON object per row (non-finite values as null)
//   sqlite  featurelab.sqlite with the tables jobs, metrics and final (non-finite values as NULL)
// Columns: run, job, job_id, seed, point, status, one per sweep axis, then step (metrics only), metric,
// value. Each file is written whole or not at all (a temporary file renamed over it).
#pragma once

#include <featurelab/core/tidy_tables.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

enum class TidyFormat { Csv, Jsonl, Sqlite };

// "csv", "jsonl" or "sqlite"; throws featurelab::Error naming the three otherwise.
TidyFormat tidy_format(const std::string& name);

// The fixed columns, before the sweep axes; an axis of the same name is refused.
const std::vector<std::string>& tidy_job_columns();

// Creates `dir` if needed; returns the files written. Throws featurelab::Error (an axis named like a
// fixed column; a file that cannot be written, with the reason).
std::vector<std::filesystem::path> write_tidy_tables(const TidyTables& tables, const std::filesystem::path& dir, TidyFormat format);

// The SQLite form, written by write_tidy_tables (its own file: it is the one that links libsqlite3).
void write_tidy_sqlite(const TidyTables& tables, const std::filesystem::path& file);

}  // namespace featurelab
