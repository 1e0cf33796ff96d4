#include "core/net/stream_client.h"

#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/net/stream_parser.h"
#include "core/net/transfer.h"

// The I/O loop drives curl's multi interface with curl_multi_socket_action on an epoll set:
// only sockets that are ready are serviced, so a thousand mostly idle streams cost nothing per
// wake-up (curl_multi_perform would look at every transfer on every wake-up). An eventfd in the
// same epoll set plays the part of curl_multi_wakeup for the command queue.
//
// Transfers are spread over several multi handles ("shards"), each with its own connection cache,
// all driven by the same loop: libcurl 7.88 walks a multi handle's whole connection list when it
// starts a transfer (looking for an idle connection) and again when it removes one, so with
// thousands of streams open on one multi handle every request cost time in proportion to the
// streams open. A shard takes at most kTransfersPerShard transfers; a new transfer goes to the
// first shard with room, so up to that many the client is one multi handle as before (an HTTP/2
// server sees one multiplexed connection), and the walks stay that short at any load.

namespace lb::net {

// What callers ask of the I/O thread; a named type (not in the anonymous namespace) because
// StreamClient::Impl holds a queue of them.
struct ClientCommand {
  enum Kind { Submit, Cancel, CancelAll, Stop } kind;
  uint64_t id = 0;
  std::unique_ptr<Transfer> transfer;
};

namespace {

constexpr int64_t kNoDeadline = INT64_MAX;
constexpr size_t kTransfersPerShard = 64;
// Idle connections a shard keeps for reuse. libcurl's default (4 x the transfers in the handle)
// would close most of them as a burst drains, and the next burst would connect again.
constexpr long kConnectionsPerShard = 2 * static_cast<long>(kTransfersPerShard);
constexpr uint64_t kWakeTag = UINT64_MAX;  // epoll data of the eventfd; sockets carry shard|fd

uint64_t socket_tag(uint32_t shard, curl_socket_t fd) {
  return (static_cast<uint64_t>(shard) << 32) | static_cast<uint32_t>(fd);
}

std::once_flag g_curl_init;

}  // namespace

// One multi handle and its connection cache; see the note at the top of this file.
struct CurlShard {
  int epoll_fd = -1;  // the loop's epoll set, where the shard's sockets go
  uint32_t index = 0;
  CURLM* multi = nullptr;
  int64_t curl_deadline_ns = kNoDeadline;
  size_t transfers = 0;
};

struct StreamClient::Impl {
  explicit Impl(ClientOptions opts);
  ~Impl();
  void run();
  void push(ClientCommand command);

  // I/O thread only.
  void drain_commands();
  void start(std::unique_ptr<Transfer> transfer);
  void start_waiting();                            // as many waiting transfers as there is room for
  void begin(std::unique_ptr<Transfer> transfer);  // hands it to curl
  void abort(uint64_t id, ErrorKind kind, const std::string& message);
  void read_messages();
  void check_deadlines(int64_t now_ns);
  int wait_timeout_ms(int64_t now_ns) const;
  bool cancel_requested() const;
  void cancel_active(const char* message);
  void complete(Transfer& transfer);
  CurlShard& shard_with_room();
  bool add_shard();
  void run_curl_timers();
  static void socket_action(CurlShard& shard, curl_socket_t fd, int flags);
  static int on_socket(CURL*, curl_socket_t fd, int what, void* shard, void*);
  static int on_timer(CURLM*, long timeout_ms, void* shard);

  struct Active {
    std::unique_ptr<Transfer> transfer;
    CurlShard* shard = nullptr;
  };

  ClientOptions options;
  std::vector<std::unique_ptr<CurlShard>> shards;  // I/O thread only, after the first
  int epoll_fd = -1;
  int wake_fd = -1;
  std::thread thread;
  std::mutex mutex;
  std::vector<ClientCommand> queue;  // guarded by mutex
  std::atomic<uint64_t> next_id{1};
  std::atomic<size_t> in_flight{0};
  std::atomic<size_t> lost_completions{0};  // completions that threw on a failed record too

  std::unordered_map<uint64_t, Active> active;
  // Submitted while max_transfers were under way: started in order as they finish.
  std::deque<std::unique_ptr<Transfer>> waiting;
  size_t max_transfers = 0;
  int64_t next_deadline_ns = kNoDeadline;  // never later than the earliest transfer deadline
  bool stopping = false;
};

void StreamClient::global_init() {
  std::call_once(g_curl_init, [] {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    // A load of thousands of streams needs as many descriptors: the soft limit (often 1,024)
    // goes up to the hard one, as far as the process may raise it without privileges.
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
      limit.rlim_cur = limit.rlim_max;
      setrlimit(RLIMIT_NOFILE, &limit);
    }
  });
}

size_t default_max_transfers() {
  // Descriptors kept for everything else: files of the run folder, pipes, the client's own.
  constexpr rlim_t kReserve = 1024;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return size_t{1} << 20;
  const rlim_t usable = limit.rlim_cur > kReserve + 3 * 64 ? limit.rlim_cur - kReserve : 3 * 64;
  return static_cast<size_t>(usable / 3);
}

StreamClient::Impl::Impl(ClientOptions opts) : options(opts) {
  StreamClient::global_init();
  max_transfers = options.max_transfers > 0 ? options.max_transfers : default_max_transfers();
  epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd < 0 || wake_fd < 0) throw std::runtime_error("StreamClient: init failed");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kWakeTag;
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, wake_fd, &ev);
  if (!add_shard()) throw std::runtime_error("StreamClient: init failed");
  thread = std::thread([this] {
    pthread_setname_np(pthread_self(), "lb-net-io");  // as top, perf and gdb show it
    run();
  });
}

StreamClient::Impl::~Impl() {
  push(ClientCommand{ClientCommand::Stop});
  thread.join();
  for (const auto& shard : shards) curl_multi_cleanup(shard->multi);
  close(epoll_fd);
  close(wake_fd);
}

bool StreamClient::Impl::add_shard() {
  auto shard = std::make_unique<CurlShard>();
  shard->epoll_fd = epoll_fd;
  shard->index = static_cast<uint32_t>(shards.size());
  shard->multi = curl_multi_init();
  if (!shard->multi) return false;
  CURLM* multi = shard->multi;
  curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &Impl::on_socket);
  curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, shard.get());
  curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &Impl::on_timer);
  curl_multi_setopt(multi, CURLMOPT_TIMERDATA, shard.get());
  curl_multi_setopt(multi, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
  if (options.max_host_connections > 0) {
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.max_host_connections);
  } else {
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, kConnectionsPerShard);
  }
  shards.push_back(std::move(shard));
  return true;
}

// The first shard with room, a new one when all are full (the last one if curl cannot make
// another). A per-host connection limit is a limit per multi handle, so with one set every
// transfer stays on the first shard.
CurlShard& StreamClient::Impl::shard_with_room() {
  if (options.max_host_connections > 0) return *shards.front();
  for (const auto& shard : shards)
    if (shard->transfers < kTransfersPerShard) return *shard;
  add_shard();
  return *shards.back();
}

void StreamClient::Impl::push(ClientCommand command) {
  {
    std::lock_guard lock(mutex);
    queue.push_back(std::move(command));
  }
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd, &one, sizeof one);
}

int StreamClient::Impl::on_socket(CURL*, curl_socket_t fd, int what, void* shard, void*) {
  const auto* s = static_cast<const CurlShard*>(shard);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(s->epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
    return 0;
  }
  epoll_event ev{};
  ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
  ev.data.u64 = socket_tag(s->index, fd);
  if (epoll_ctl(s->epoll_fd, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT) {
    epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
  }
  return 0;
}

int StreamClient::Impl::on_timer(CURLM*, long timeout_ms, void* shard) {
  static_cast<CurlShard*>(shard)->curl_deadline_ns =
      timeout_ms < 0 ? kNoDeadline : steady_now_ns() + static_cast<int64_t>(timeout_ms) * 1'000'000;
  return 0;
}

void StreamClient::Impl::socket_action(CurlShard& shard, curl_socket_t fd, int flags) {
  int running = 0;
  curl_multi_socket_action(shard.multi, fd, flags, &running);
}

void StreamClient::Impl::run_curl_timers() {
  const int64_t now = steady_now_ns();
  for (size_t i = 0; i < shards.size(); ++i) {  // by index: a callback never adds a shard, but
    CurlShard& shard = *shards[i];              // keep the loop safe if one ever does
    if (shard.curl_deadline_ns > now) continue;
    shard.curl_deadline_ns = kNoDeadline;
    socket_action(shard, CURL_SOCKET_TIMEOUT, 0);
  }
}

int StreamClient::Impl::wait_timeout_ms(int64_t now_ns) const {
  int64_t deadline = next_deadline_ns;
  for (const auto& shard : shards) deadline = std::min(deadline, shard->curl_deadline_ns);
  const int cap_ms = options.cancel_when ? kCancelPollMs : INT_MAX;
  if (deadline == kNoDeadline) return options.cancel_when ? cap_ms : -1;
  if (deadline <= now_ns) return 0;
  const int64_t ms = (deadline - now_ns + 999'999) / 1'000'000;  // round up: never spin early
  return static_cast<int>(std::min<int64_t>(ms, cap_ms));
}

bool StreamClient::Impl::cancel_requested() const {
  return options.cancel_when && options.cancel_when->load(std::memory_order_relaxed);
}

void StreamClient::Impl::cancel_active(const char* message) {
  std::deque<std::unique_ptr<Transfer>> queued;
  queued.swap(waiting);  // before the aborts below make room for them
  for (auto& transfer : queued) {
    transfer->fail(ErrorKind::Cancelled, message, steady_now_ns());
    complete(*transfer);
  }
  std::vector<uint64_t> ids;
  for (const auto& entry : active) ids.push_back(entry.first);
  for (uint64_t id : ids) abort(id, ErrorKind::Cancelled, message);
}

void StreamClient::Impl::run() {
  constexpr int kMaxEvents = 256;
  epoll_event events[kMaxEvents];
  while (!(stopping && active.empty())) {
    const int n = epoll_wait(epoll_fd, events, kMaxEvents, wait_timeout_ms(steady_now_ns()));
    bool woken = false;
    for (int i = 0; i < n; ++i) {
      const uint64_t tag = events[i].data.u64;
      if (tag == kWakeTag) {
        uint64_t count = 0;
        [[maybe_unused]] ssize_t r = ::read(wake_fd, &count, sizeof count);
        woken = true;
        continue;
      }
      const uint32_t ev = events[i].events;
      const int flags = ((ev & EPOLLIN) ? CURL_CSELECT_IN : 0) |
                        ((ev & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                        ((ev & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
      socket_action(*shards[tag >> 32], static_cast<curl_socket_t>(tag & 0xffffffffu), flags);
    }
    if (woken) drain_commands();
    run_curl_timers();
    read_messages();
    check_deadlines(steady_now_ns());
    if ((!active.empty() || !waiting.empty()) && cancel_requested()) cancel_active("stopped");
    start_waiting();
  }
  // Submissions that raced with shutdown are completed as cancelled, never dropped.
  for (;;) {
    std::vector<ClientCommand> rest;
    {
      std::lock_guard lock(mutex);
      rest.swap(queue);
    }
    if (rest.empty()) break;
    for (auto& c : rest) {
      if (c.kind != ClientCommand::Submit) continue;
      c.transfer->fail(ErrorKind::Cancelled, "client shut down", steady_now_ns());
      complete(*c.transfer);
    }
  }
}

void StreamClient::Impl::drain_commands() {
  std::vector<ClientCommand> batch;
  {
    std::lock_guard lock(mutex);
    batch.swap(queue);
  }
  for (auto& c : batch) {
    switch (c.kind) {
      case ClientCommand::Submit:
        if (stopping || cancel_requested()) {
          c.transfer->fail(ErrorKind::Cancelled, stopping ? "client shut down" : "stopped",
                           steady_now_ns());
          complete(*c.transfer);
        } else {
          start(std::move(c.transfer));
        }
        break;
      case ClientCommand::Cancel:
        abort(c.id, ErrorKind::Cancelled, "cancelled");
        break;
      case ClientCommand::Stop:
        stopping = true;
        [[fallthrough]];
      case ClientCommand::CancelAll:
        cancel_active("cancelled");
        break;
    }
  }
}

void StreamClient::Impl::start_waiting() {
  while (!waiting.empty() && active.size() < max_transfers) {
    std::unique_ptr<Transfer> next = std::move(waiting.front());
    waiting.pop_front();
    begin(std::move(next));
  }
}

void StreamClient::Impl::start(std::unique_ptr<Transfer> transfer) {
  if (active.size() >= max_transfers || !waiting.empty())
    waiting.push_back(std::move(transfer));
  else
    begin(std::move(transfer));
}

void StreamClient::Impl::begin(std::unique_ptr<Transfer> transfer) {
  const int64_t now = steady_now_ns();
  transfer->mark_submitted(now);
  CurlShard& shard = shard_with_room();
  if (!transfer->configure() || curl_multi_add_handle(shard.multi, transfer->easy()) != CURLM_OK) {
    transfer->fail(ErrorKind::Connect, "could not start the transfer", now);
    complete(*transfer);
    return;
  }
  ++shard.transfers;
  transfer->set_deadline_hint(&next_deadline_ns);
  if (const int64_t d = transfer->deadline_ns(); d != 0)
    next_deadline_ns = std::min(next_deadline_ns, d);
  const uint64_t id = transfer->id();
  active.emplace(id, Active{std::move(transfer), &shard});
}

void StreamClient::Impl::abort(uint64_t id, ErrorKind kind, const std::string& message) {
  const auto it = active.find(id);
  if (it == active.end()) {
    const auto queued =
        std::find_if(waiting.begin(), waiting.end(), [id](const auto& t) { return t->id() == id; });
    if (queued == waiting.end()) return;
    std::unique_ptr<Transfer> transfer = std::move(*queued);
    waiting.erase(queued);
    transfer->fail(kind, message, steady_now_ns());
    complete(*transfer);
    return;
  }
  Active entry = std::move(it->second);
  active.erase(it);
  curl_multi_remove_handle(entry.shard->multi, entry.transfer->easy());
  --entry.shard->transfers;
  entry.transfer->fail(kind, message, steady_now_ns());
  complete(*entry.transfer);
}

void StreamClient::Impl::complete(Transfer& transfer) {
  --in_flight;
  try {
    transfer.complete();  // a first throw becomes a failed record (Transfer::complete)
  } catch (...) {
    // Thrown again on the failed record: the I/O thread (and every other stream) must go on.
    ++lost_completions;
  }
}

void StreamClient::Impl::read_messages() {
  for (size_t i = 0; i < shards.size(); ++i) {
    CURLM* multi = shards[i]->multi;
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      Transfer* raw = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &raw);
      const CURLcode code = msg->data.result;
      const auto it = active.find(raw->id());
      Active entry = std::move(it->second);
      active.erase(it);
      curl_multi_remove_handle(multi, entry.transfer->easy());
      --entry.shard->transfers;
      entry.transfer->finish(code, steady_now_ns());
      complete(*entry.transfer);
    }
  }
}

void StreamClient::Impl::check_deadlines(int64_t now_ns) {
  if (now_ns < next_deadline_ns) return;
  next_deadline_ns = kNoDeadline;
  std::vector<std::pair<uint64_t, bool>> expired;  // id, body started (idle vs first byte)
  for (const auto& [id, entry] : active) {
    const int64_t d = entry.transfer->deadline_ns();
    if (d == 0) continue;
    if (d <= now_ns) {
      expired.emplace_back(id, entry.transfer->body_started());
    } else {
      next_deadline_ns = std::min(next_deadline_ns, d);
    }
  }
  for (const auto& [id, started] : expired) {
    const Timeouts& t = active.at(id).transfer->request().timeouts;
    if (started) {
      abort(id, ErrorKind::IdleTimeout,
            "no bytes for " + std::to_string(t.idle_ms) + " ms (idle timeout) mid-stream");
    } else {
      abort(id, ErrorKind::FirstByteTimeout,
            "no response body within " + std::to_string(t.first_byte_ms) +
                " ms (first-byte timeout)");
    }
  }
}

// --- public API ---------------------------------------------------------------------------

StreamClient::StreamClient(ClientOptions options) : impl_(std::make_unique<Impl>(options)) {}

StreamClient::~StreamClient() = default;

uint64_t StreamClient::submit(HttpRequest request, Completion done, EventObserver observer) {
  const uint64_t id = impl_->next_id++;
  auto transfer = std::make_unique<Transfer>(id, std::move(request), std::move(done),
                                             std::move(observer), impl_->options);
  ++impl_->in_flight;
  impl_->push(ClientCommand{ClientCommand::Submit, id, std::move(transfer)});
  return id;
}

void StreamClient::cancel(uint64_t id) {
  impl_->push(ClientCommand{ClientCommand::Cancel, id, nullptr});
}

void StreamClient::cancel_all() {
  impl_->push(ClientCommand{ClientCommand::CancelAll, 0, nullptr});
}

size_t StreamClient::in_flight() const { return impl_->in_flight.load(); }

size_t StreamClient::max_transfers() const { return impl_->max_transfers; }
size_t StreamClient::lost_completions() const { return impl_->lost_completions.load(); }

StreamResult StreamClient::fetch(HttpRequest request) {
  if (std::this_thread::get_id() == impl_->thread.get_id()) {
    // Waiting on the I/O thread for work that only the I/O thread can do would never return.
    throw std::logic_error("StreamClient::fetch called from a completion or observer");
  }
  std::promise<StreamResult> promise;
  auto future = promise.get_future();
  submit(std::move(request), [&promise](StreamResult&& r) { promise.set_value(std::move(r)); });
  StreamResult result = future.get();
  resolve_logprobs(result);  // on the caller's thread, not the I/O thread
  return result;
}

}  // namespace lb::net
