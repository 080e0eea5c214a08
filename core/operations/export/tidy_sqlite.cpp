// featurelab.sqlite: the tables jobs, metrics and final (tidy_writers.hpp), written in one transaction
// to a temporary file that is renamed over the old one.
#include <featurelab/core/tidy_writers.hpp>

#include <featurelab/error.hpp>

#include <sqlite3.h>

#include <memory>
#include <unistd.h>

namespace fs = std::filesystem;

namespace featurelab {

namespace {

std::string quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

class Database {
 public:
  explicit Database(const fs::path& file) : file_(file) {
    if (sqlite3_open(file.c_str(), &db_) != SQLITE_OK) fail("cannot create it");
  }
  ~Database() { sqlite3_close(db_); }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(const std::string& sql) {
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot write it");
  }
  sqlite3_stmt* prepare(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) fail("cannot write it");
    return statement;
  }
  void step(sqlite3_stmt* statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) fail("cannot write it");
    sqlite3_reset(statement);
  }
  [[noreturn]] void fail(const std::string& what) {
    throw Error(file_.string() + ": " + what + " (SQLite: " + (db_ ? sqlite3_errmsg(db_) : "out of memory") + ")");
  }

 private:
  fs::path file_;
  sqlite3* db_ = nullptr;
};

using Statement = std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)>;

// Binds the job's columns and axes from parameter 1 on; returns the next parameter's number.
int bind_job(sqlite3_stmt* s, const TidyJob& job) {
  int p = 1;
  sqlite3_bind_text(s, p++, job.run.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, p++, static_cast<sqlite3_int64>(job.index));
  sqlite3_bind_text(s, p++, job.id.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, p++, job.seed);
  sqlite3_bind_int64(s, p++, static_cast<sqlite3_int64>(job.point));
  sqlite3_bind_text(s, p++, job.status.c_str(), -1, SQLITE_TRANSIENT);
  for (const auto& cell : job.axes) {
    if (cell.kind == AxisCell::Kind::Number) {
      sqlite3_bind_double(s, p++, cell.number);
    } else if (cell.kind == AxisCell::Kind::Text) {
      sqlite3_bind_text(s, p++, cell.text.c_str(), -1, SQLITE_TRANSIENT);
    } else {
      sqlite3_bind_null(s, p++);
    }
  }
  return p;
}

void write_database(const TidyTables& tables, const fs::path& file) {
  Database db(file);
  std::string job_columns = "run TEXT, job INTEGER, job_id TEXT, seed INTEGER, point INTEGER, status TEXT";
  for (const auto& axis : tables.axes) job_columns += ", " + quoted(axis);  // no type: numbers and texts as they come
  db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;");
  db.exec("CREATE TABLE jobs(" + job_columns + ");");
  db.exec("CREATE TABLE metrics(" + job_columns + ", step INTEGER, metric TEXT, value REAL, source TEXT);");
  db.exec("CREATE TABLE final(" + job_columns + ", metric TEXT, value REAL, source TEXT);");
  const std::size_t n = tidy_job_columns().size() + tables.axes.size();
  std::string marks;
  for (std::size_t i = 0; i < n; ++i) marks += i ? ",?" : "?";
  const Statement jobs(db.prepare("INSERT INTO jobs VALUES(" + marks + ");"), &sqlite3_finalize);
  const Statement metrics(db.prepare("INSERT INTO metrics VALUES(" + marks + ",?,?,?,?);"), &sqlite3_finalize);
  const Statement finals(db.prepare("INSERT INTO final VALUES(" + marks + ",?,?,?);"), &sqlite3_finalize);
  for (const auto& job : tables.jobs) {
    bind_job(jobs.get(), job);
    db.step(jobs.get());
  }
  // A NaN bound as REAL is stored as NULL (SQLite has no NaN).
  for (const auto& row : tables.metrics) {
    int p = bind_job(metrics.get(), tables.jobs[row.job]);
    sqlite3_bind_int64(metrics.get(), p++, static_cast<sqlite3_int64>(row.step));
    sqlite3_bind_text(metrics.get(), p++, row.metric->c_str(), -1, SQLITE_STATIC);
    sqlite3_bind_double(metrics.get(), p++, row.value);
    sqlite3_bind_text(metrics.get(), p, row.source->c_str(), -1, SQLITE_STATIC);
    db.step(metrics.get());
  }
  for (const auto& row : tables.finals) {
    int p = bind_job(finals.get(), tables.jobs[row.job]);
    sqlite3_bind_text(finals.get(), p++, row.metric->c_str(), -1, SQLITE_STATIC);
    sqlite3_bind_double(finals.get(), p++, row.value);
    sqlite3_bind_text(finals.get(), p, row.source->c_str(), -1, SQLITE_STATIC);
    db.step(finals.get());
  }
  db.exec("COMMIT;");
}

}  // namespace

void write_tidy_sqlite(const TidyTables& tables, const fs::path& file) {
  const fs::path temporary = file.string() + ".tmp." + std::to_string(::getpid());
  std::error_code ignored;
  fs::remove(temporary, ignored);
  try {
    write_database(tables, temporary);
  } catch (...) {
    fs::remove(temporary, ignored);
    throw;
  }
  std::error_code error;
  fs::rename(temporary, file, error);
  if (error) {
    fs::remove(temporary, ignored);
    throw Error(file.string() + ": cannot write it: " + error.message());
  }
}

}  // namespace featurelab
