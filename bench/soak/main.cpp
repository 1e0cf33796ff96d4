// lanebench-bench-soak: N concurrent streams against a faulty in-process simulator lane for a
// duration; every request accounted for, memory and descriptors flat after warm-up, per-event
// arrival within the fidelity bar. Exit 0 when every bar holds, 1 when one does not, 2 on bad
// options. Figures in docs/benchmarks.md, section "Soak".
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "soak_run.h"

namespace {

struct Bars {
  double p99_lag_ms =
      2.0;  // the bar of docs/benchmarks.md: arrival error p99 < 2 ms at 256 streams
  double rss_growth_mb = 16.0;    // last - first after warm-up
  double rss_slope_mb_min = 1.0;  // least-squares slope after warm-up
  double fd_growth = 16;          // last - first after warm-up
};

// Every stream takes two descriptors here (the client's socket and the simulator's), so tens of
// thousands of streams need more than a usual hard limit: a privileged process raises it to what
// the streams need, anyone else to the hard limit.
// False with a message when the streams cannot have the descriptors they need: a run past the
// limit would measure a million failed connects, not the client.
bool raise_fd_limit(int streams, std::string* error) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return true;
  const rlim_t wanted = static_cast<rlim_t>(streams) * 2 + 1024;
  if (lim.rlim_max < wanted) {
    rlimit raised{wanted, wanted};
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) return true;
  }
  if (lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur >= wanted) return true;
  *error = std::to_string(streams) + " streams need about " + std::to_string(wanted) +
           " descriptors (a client and a server socket each); this process may open " +
           std::to_string(lim.rlim_cur) +
           " (raising the hard limit needs CAP_SYS_RESOURCE, or ulimit -n as root)";
  return false;
}

nlohmann::json flat_json(const lb::bench::FlatnessFigures& f) {
  return {{"samples", f.samples},
          {"first", f.first},
          {"last", f.last},
          {"max", f.max},
          {"slope_per_min", f.slope_per_min}};
}

nlohmann::json result_json(const lb::bench::SoakConfig& c, const lb::bench::SoakResult& r) {
  return {{"duration_s", c.duration_s},
          {"streams", c.streams},
          {"fault_rate_each", c.fault_rate},
          {"elapsed_s", r.elapsed_s},
          {"submitted", r.submitted},
          {"finished", r.finished},
          {"outcomes", r.outcomes},
          {"unexpected", r.unexpected},
          {"unmatched_trace", r.unmatched_trace},
          {"requests_per_s", r.requests_per_s},
          {"events_per_s", r.events_per_s},
          {"arrival_lag_ms",
           {{"events", r.lag.events},
            {"requests", r.lag.requests},
            {"count_mismatches", r.lag.count_mismatches},
            {"p50", r.lag.p50_ms},
            {"p99", r.lag.p99_ms},
            {"max", r.lag.max_ms},
            {"min", r.lag.min_ms}}},
          {"rss_mb_after_warmup", flat_json(r.rss_mb)},
          {"open_fds_after_warmup", flat_json(r.open_fds)}};
}

// Each failed bar, named.
std::vector<std::string> failed_bars(const lb::bench::SoakResult& r, const Bars& b) {
  std::vector<std::string> out;
  if (r.finished != r.submitted) out.push_back("requests not accounted for");
  if (r.unexpected > 0) out.push_back("requests with an outcome their fault does not explain");
  if (r.lag.events == 0 || r.lag.count_mismatches > 0 || r.unmatched_trace > 0)
    out.push_back("events not matched with the simulator's trace");
  if (r.lag.p99_ms >= b.p99_lag_ms) out.push_back("arrival lag p99 over the bar");
  if (r.rss_mb.samples < 2) out.push_back("too few samples after warm-up");
  if (r.rss_mb.last - r.rss_mb.first > b.rss_growth_mb) out.push_back("RSS grew after warm-up");
  if (r.rss_mb.slope_per_min > b.rss_slope_mb_min) out.push_back("RSS slope over the bar");
  if (r.open_fds.last - r.open_fds.first > b.fd_growth)
    out.push_back("open descriptors grew after warm-up");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  lb::bench::SoakConfig config;
  Bars bars;
  CLI::App app{"lanebench-bench-soak: concurrent streams against a faulty simulator lane"};
  app.add_option("--duration-s", config.duration_s, "how long to keep the streams going")
      ->check(CLI::PositiveNumber);
  app.add_option("--streams", config.streams, "concurrent streams")->check(CLI::Range(1, 32768));
  app.add_option("--warmup-s", config.warmup_s, "samples before this are not judged");
  app.add_option("--sample-s", config.sample_every_s, "RSS / descriptor sampling period")
      ->check(CLI::PositiveNumber);
  app.add_option("--fault-rate", config.fault_rate, "share of requests per fault kind")
      ->check(CLI::Range(0.0, 0.25));
  app.add_option("--output-tokens", config.output_tokens, "tokens per request")
      ->check(CLI::Range(4, 4096));
  app.add_option("--decode-tok-s", config.decode_tok_s, "per-stream decode rate (model time)")
      ->check(CLI::PositiveNumber);
  app.add_option("--time-scale", config.time_scale, "simulator time scale")
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", config.seed, "fault draws");
  app.add_option("--p99-bar-ms", bars.p99_lag_ms, "arrival lag p99 bar");
  app.add_option("--rss-growth-mb", bars.rss_growth_mb, "allowed RSS growth after warm-up");
  app.add_option("--rss-slope-mb-min", bars.rss_slope_mb_min, "allowed RSS slope after warm-up");
  app.add_option("--fd-growth", bars.fd_growth, "allowed descriptor growth after warm-up");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (config.warmup_s >= config.duration_s) {
    std::cerr << "--warmup-s must be shorter than --duration-s\n";
    return 2;
  }
  if (std::string error; !raise_fd_limit(config.streams, &error)) {
    std::cerr << error << '\n';
    return 2;
  }
  const lb::bench::SoakResult r = lb::bench::run_soak(config);
  nlohmann::json j = result_json(config, r);
  const auto failed = failed_bars(r, bars);
  j["failed_bars"] = failed;
  std::cout << j.dump(2) << '\n';  // figures on stdout, progress on stderr
  for (const auto& f : failed) std::cerr << "FAILED: " << f << '\n';
  return failed.empty() ? 0 : 1;
}
