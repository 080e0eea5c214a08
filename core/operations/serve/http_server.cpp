// The HTTP side of `featurelab serve` (cpp-httplib, Debian's libcpp-httplib-dev): fixed routes, JSON answers, every
// failure an answer with its reason (400 a malformed request, 404 nothing there, 500 a run that cannot be read),
// never a crash of the server. Each run is read again at most twice a second, whatever the number of pages polling.
#include <featurelab/core/serve.hpp>

#include "execution/stop_signals.hpp"
#include "operations/serve/serve_api.hpp"

#include <featurelab/error.hpp>

#include <httplib.h>
#include <sys/socket.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

namespace featurelab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr auto kRefreshInterval = std::chrono::milliseconds(500);

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string() + ": missing; the page's files are installed with featurelab (share/featurelab/web)");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void answer(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
  res.set_header("Cache-Control", "no-store");
}

void refuse(httplib::Response& res, int status, const std::string& why) { answer(res, status, {{"error", why}}); }

class Watches {
 public:
  explicit Watches(const std::vector<fs::path>& runs) {
    for (const auto& run : runs) watches_.emplace_back(run);
    last_.resize(watches_.size());
  }

  std::size_t size() const { return watches_.size(); }

  // f(watch) on run r read again if its last reading is older than kRefreshInterval.
  template <class F>
  json with(std::size_t r, F&& f) {
    const std::lock_guard<std::mutex> lock(mutex_);
    refresh(r);
    return f(watches_[r]);
  }

  json all(const std::function<json(const std::vector<RunWatch>&)>& f) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t r = 0; r < watches_.size(); ++r) refresh(r);
    return f(watches_);
  }

  json pair(std::size_t a, std::size_t b, const std::function<json(const RunWatch&, const RunWatch&)>& f) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return f(watches_[a], watches_[b]);
  }

 private:
  void refresh(std::size_t r) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_[r] < kRefreshInterval) return;
    watches_[r].refresh();
    last_[r] = now;
  }

  std::mutex mutex_;
  std::vector<RunWatch> watches_;
  std::vector<std::chrono::steady_clock::time_point> last_;
};

// The run index of /api/runs/<r>/…, or a 404 answered.
std::optional<std::size_t> run_index(const httplib::Request& req, httplib::Response& res, std::size_t runs) {
  const std::string text = req.matches[1];
  std::size_t r = 0;
  try {
    r = static_cast<std::size_t>(std::stoull(text));
  } catch (const std::exception&) {
    r = runs;
  }
  if (r >= runs) {
    refuse(res, 404, "no run " + text + "; this page serves runs 0 to " + std::to_string(runs - 1));
    return std::nullopt;
  }
  return r;
}

}  // namespace

int serve_runs(const ServeOptions& options) {
  if (options.runs.empty()) throw Error("serve: give at least one run directory");
  Watches watches(options.runs);  // throws for a directory that is not a run
  // The page's files, read once: the server never opens a path a request names.
  const std::string page = read_file(options.web_dir / "serve.html");
  const std::string script = read_file(options.web_dir / "serve.js");
  const std::string chart = read_file(options.web_dir / "chart.min.js");

  httplib::Server server;
  server.Get("/", [&](const httplib::Request&, httplib::Response& res) { res.set_content(page, "text/html; charset=utf-8"); });
  server.Get("/serve.js", [&](const httplib::Request&, httplib::Response& res) { res.set_content(script, "text/javascript"); });
  server.Get("/chart.js", [&](const httplib::Request&, httplib::Response& res) { res.set_content(chart, "text/javascript"); });
  server.Get("/api/runs", [&](const httplib::Request&, httplib::Response& res) {
    answer(res, 200, watches.all([](const std::vector<RunWatch>& w) { return serve_api::runs(w); }));
  });
  const auto per_run = [&](const char* pattern, std::function<json(const httplib::Request&, const RunWatch&)> f) {
    server.Get(pattern, [&watches, f](const httplib::Request& req, httplib::Response& res) {
      if (const auto r = run_index(req, res, watches.size())) answer(res, 200, watches.with(*r, [&](const RunWatch& w) { return f(req, w); }));
    });
  };
  per_run(R"(/api/runs/(\d+)/jobs)", [](const httplib::Request&, const RunWatch& w) { return serve_api::jobs(w); });
  per_run(R"(/api/runs/(\d+)/finals)", [](const httplib::Request&, const RunWatch& w) { return serve_api::finals(w); });
  per_run(R"(/api/runs/(\d+)/assertions)", [](const httplib::Request&, const RunWatch& w) { return serve_api::assertions(w); });
  per_run(R"(/api/runs/(\d+)/provenance)", [](const httplib::Request&, const RunWatch& w) { return serve_api::provenance(w); });
  server.Get(R"(/api/runs/(\d+)/series)", [&](const httplib::Request& req, httplib::Response& res) {
    const auto r = run_index(req, res, watches.size());
    if (!r) return;
    if (!req.has_param("metric") || req.get_param_value("metric").empty()) {
      refuse(res, 400, "series needs ?metric=NAME (a recorded metric; /api/runs lists them)");
      return;
    }
    const std::string metric = req.get_param_value("metric");
    answer(res, 200, watches.with(*r, [&](const RunWatch& w) { return serve_api::series(w, metric); }));
  });
  server.Get("/api/diff", [&](const httplib::Request& req, httplib::Response& res) {
    std::size_t a = 0, b = 0;
    try {
      a = static_cast<std::size_t>(std::stoull(req.get_param_value("a")));
      b = static_cast<std::size_t>(std::stoull(req.get_param_value("b")));
    } catch (const std::exception&) {
      refuse(res, 400, "diff needs ?a=RUN&b=RUN, two run indices");
      return;
    }
    if (a >= watches.size() || b >= watches.size()) {
      refuse(res, 404, "no run " + std::to_string(std::max(a, b)) + "; this page serves runs 0 to " + std::to_string(watches.size() - 1));
      return;
    }
    answer(res, 200, watches.pair(a, b, [](const RunWatch& x, const RunWatch& y) { return serve_api::diff(x, y); }));
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 404 && res.body.empty()) {
      refuse(res, 404, "nothing at " + req.path + "; the page is /, its data under /api/runs");
    }
  });
  server.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr error) {
    std::string why = "unknown error";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      why = e.what();
    } catch (...) {
    }
    refuse(res, 500, req.path + ": " + why);
  });

  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, with which a second server would share a port in use.
  server.set_socket_options([](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<void*>(&yes), sizeof(yes));
  });
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
  } else if (!server.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port < 0) {
    throw Error("serve: cannot listen on " + options.host + ":" + std::to_string(options.port) +
                " (in use, or not an address of this machine); give another with --port, or --port 0 for any free one");
  }
  install_stop_handlers();
  std::atomic<bool> ended{false};  // listen returned by itself: the stopper has nothing to stop
  std::thread stopper([&] {
    while (!stop_requested_flag().load() && !ended.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server.stop();
  });
  if (options.log) {
    options.log->info("serving {} run(s) on http://{}:{}/ (Ctrl-C stops)", watches.size(), options.host, port);
    options.log->flush();
  }
  server.listen_after_bind();
  ended = true;
  stopper.join();
  restore_default_stop_handlers();
  return 0;
}

}  // namespace featurelab
