//===- Watchdog.cpp - Every blocking MPI call bounded in time -------------===//
//
// A collective that has not completed after MS_COMM_TIMEOUT seconds means
// another rank died, exited or skipped it: the watchdog thread says which
// collective on which rank and ends the process, so that mpirun ends the
// job instead of letting it hang. A rank that mpirun terminates because
// another failed says so on stderr (onTerminate).
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include <chrono>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace ms::runtime::comm;
using namespace ms::runtime::comm::detail;

static int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Watchdog::start() { thread = std::thread([this] { loop(); }); }

Watchdog::~Watchdog() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_one();
  thread.join();
}

void Watchdog::loop() {
  WatchState &watch = theCommunicator.watch;
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    if (wake.wait_for(lock, std::chrono::milliseconds(100),
                      [&] { return stopping; }))
      return;
    int64_t deadline = watch.deadline.load(std::memory_order_acquire);
    if (deadline == 0 || nowNs() < deadline)
      continue;
    const char *what = watch.what.load();
    std::fprintf(stderr,
                 "msmlir: error: rank %d: %s did not complete within %g s "
                 "(MS_COMM_TIMEOUT): another rank died, exited, or did not "
                 "reach the same collective. Ending this process so that "
                 "mpirun ends the job.\n",
                 watch.rank.load(), what ? what : "a collective",
                 timeoutSeconds());
    std::fflush(stderr);
    // Not MPI_Abort: MPI is not ours to call from this thread. A rank that
    // exits without finalizing makes mpirun terminate the others.
    _exit(1);
  }
}

Watched::Watched(const char *what, int64_t bytes, int calls)
    : start(nowNs()) {
  Communicator &c = theCommunicator;
  c.watch.what.store(what);
  // MS_COMM_TIMEOUT=inf, or any bound past the clock's range, is none.
  double budget = timeoutSeconds() * 1e9;
  int64_t room = INT64_MAX - start;
  c.watch.deadline.store(budget >= static_cast<double>(room)
                             ? INT64_MAX
                             : start + static_cast<int64_t>(budget),
                         std::memory_order_release);
  c.stats.calls += calls;
  c.stats.bytes += bytes;
}

Watched::~Watched() {
  Communicator &c = theCommunicator;
  c.watch.deadline.store(0, std::memory_order_release);
  c.stats.seconds += (nowNs() - start) * 1e-9;
}

// With only async-signal-safe calls: no stdio, no allocation.
void detail::onTerminate(int signo) {
  static const char prefix[] = "msmlir: error: rank ";
  static const char suffix[] =
      ": terminated by the MPI launcher, most likely because another rank "
      "failed or exited early (see its output above)";
  const WatchState &watch = theCommunicator.watch;
  char buffer[256];
  size_t n = 0;
  auto append = [&](const char *text, size_t length) {
    for (size_t i = 0; i < length && n < sizeof(buffer); ++i)
      buffer[n++] = text[i];
  };
  append(prefix, sizeof(prefix) - 1);
  int r = watch.rank.load();
  char digits[12];
  int d = 0;
  do {
    digits[d++] = static_cast<char>('0' + r % 10);
    r /= 10;
  } while (r > 0 && d < 11);
  while (d > 0)
    append(&digits[--d], 1);
  append(suffix, sizeof(suffix) - 1);
  const char *what = watch.deadline.load() != 0 ? watch.what.load() : nullptr;
  if (what) {
    append(" (while in ", 11);
    size_t length = 0;
    while (what[length])
      ++length;
    append(what, length);
    append(")", 1);
  }
  append("\n", 1);
  ssize_t ignored = write(STDERR_FILENO, buffer, n);
  (void)ignored;
  std::signal(signo, SIG_DFL);
  raise(signo);
}
