//===- ProcessRunner.cpp - Run a program with limits, watched -------------===//
//
// fork + setsid: the program's tree is one process group, killed with
// kill(-pgid, SIGKILL) at the time limit, past the output cap and, to sweep
// up leftovers, when the program exits; rlimits are set in the child before
// exec and inherited by everything below; PR_SET_PDEATHSIG kills the child
// if this process dies first. Output comes back through pipes read with
// poll(); stdin is a socketpair so writing to a program that stopped reading
// cannot raise SIGPIPE here.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Process/ProcessRunner.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace llvm;
using namespace tensorop;

/// How long to keep reading pipes once the script's group has been killed,
/// in case something outside the group still holds them (unsandboxed mode).
static constexpr int kDrainMillis = 2000;

//===----------------------------------------------------------------------===//
// Spawning with limits, pipes and a process group
//===----------------------------------------------------------------------===//

namespace {
/// Closes a descriptor once.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int fd) : fd(fd) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { reset(); }
  void reset(int newFd = -1) {
    if (fd >= 0)
      ::close(fd);
    fd = newFd;
  }
  int release() {
    int r = fd;
    fd = -1;
    return r;
  }
};
} // namespace

/// Moves `fd` above 2 so dup2 onto 0..2 in the child never clobbers it (the
/// host may run with a standard descriptor closed).
static int aboveStdio(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

static int pidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

/// Marks every descriptor from 3 up close-on-exec (async-signal-safe).
static void closeOnExecFrom3() {
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
  if (::syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC) == 0)
    return;
#endif
  for (int fd = 3; fd < 4096; ++fd)
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static bool hasExited(pid_t pid, int pidfd, short revents) {
  if (pidfd >= 0)
    return revents & POLLIN;
  siginfo_t info;
  std::memset(&info, 0, sizeof(info));
  return ::waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

Expected<ProcessResult> tensorop::runProcess(const ProcessSpec &spec) {
  // Everything the child needs is built before fork: after it, in a possibly
  // multithreaded host, only async-signal-safe calls are allowed.
  if (spec.argv.empty())
    return createStringError(inconvertibleErrorCode(),
                             spec.errorPrefix + ": no program to run");
  std::vector<char *> argv, envp;
  for (const std::string &a : spec.argv)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  char **env = environ;
  if (spec.environment) {
    for (const std::string &e : *spec.environment)
      envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    env = envp.data();
  }

  int stdinPair[2], outPipe[2], errPipe[2], execPipe[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, stdinPair) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             spec.errorPrefix + ": socketpair failed");
  Fd inParent(aboveStdio(stdinPair[0])), inChild(aboveStdio(stdinPair[1]));
  if (::pipe2(outPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             spec.errorPrefix + ": pipe failed");
  Fd outRead(aboveStdio(outPipe[0])), outWrite(aboveStdio(outPipe[1]));
  if (::pipe2(errPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             spec.errorPrefix + ": pipe failed");
  Fd errRead(aboveStdio(errPipe[0])), errWrite(aboveStdio(errPipe[1]));
  if (::pipe2(execPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             spec.errorPrefix + ": pipe failed");
  // The exec-error pipe sits above 3, where bwrap's info descriptor goes.
  Fd execRead(execPipe[0]),
      execWrite(::fcntl(execPipe[1], F_DUPFD_CLOEXEC, 10));
  ::close(execPipe[1]);
  int infoPipe[2] = {-1, -1};
  if (spec.bwrapInfoFd && ::pipe2(infoPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             spec.errorPrefix + ": pipe failed");
  Fd infoRead(infoPipe[0]), infoWrite(aboveStdio(infoPipe[1]));
  // Above 10 too, clear of 3 and 4 where the child puts its descriptors.
  Fd fd4Source(-1);
  if (spec.fd4Data) {
    int memfd = ::memfd_create("tensorop-fd4", MFD_CLOEXEC);
    if (memfd < 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                               spec.errorPrefix + ": memfd_create failed");
    fd4Source.fd = ::fcntl(memfd, F_DUPFD_CLOEXEC, 10);
    ::close(memfd);
    const std::string &data = *spec.fd4Data;
    for (size_t at = 0; fd4Source.fd >= 0 && at < data.size();) {
      ssize_t n = ::write(fd4Source.fd, data.data() + at, data.size() - at);
      if (n <= 0)
        return createStringError(
            std::error_code(errno, std::generic_category()),
            spec.errorPrefix + ": cannot write descriptor 4's data");
      at += size_t(n);
    }
    if (fd4Source.fd >= 0 && ::lseek(fd4Source.fd, 0, SEEK_SET) != 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                               spec.errorPrefix + ": lseek failed");
  }
  if (inParent.fd < 0 || inChild.fd < 0 || outRead.fd < 0 || outWrite.fd < 0 ||
      errRead.fd < 0 || errWrite.fd < 0 || execWrite.fd < 0 ||
      (spec.bwrapInfoFd && infoWrite.fd < 0) ||
      (spec.fd4Data && fd4Source.fd < 0))
    return createStringError(inconvertibleErrorCode(),
                             spec.errorPrefix + ": cannot set up pipes");

  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             spec.errorPrefix + ": fork failed");
  if (pid == 0) {
    auto die = [&](int code) {
      int err = errno;
      ssize_t ignored = ::write(execWrite.fd, &err, sizeof(err));
      (void)ignored;
      ::_exit(code);
    };
    // Own session and process group: kill(-pid) reaches the whole tree.
    if (::setsid() < 0)
      die(127);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(127);
    // Dispositions set to "ignore" and blocked signals survive exec.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP)
        ::sigaction(sig, &dfl, nullptr);
    if (::dup2(inChild.fd, 0) < 0 || ::dup2(outWrite.fd, 1) < 0 ||
        ::dup2(errWrite.fd, 2) < 0)
      die(127);
    closeOnExecFrom3();
    if (infoWrite.fd >= 0) {
      // bwrap --info-fd 3; dup2 clears close-on-exec (fcntl if already 3).
      if (infoWrite.fd == 3 ? ::fcntl(3, F_SETFD, 0) < 0
                            : ::dup2(infoWrite.fd, 3) < 0)
        die(127);
    }
    if (fd4Source.fd >= 0 && ::dup2(fd4Source.fd, 4) < 0)
      die(127);
    for (const ResourceLimit &l : spec.limits) {
      struct rlimit r;
      r.rlim_cur = r.rlim_max = static_cast<rlim_t>(l.value);
      if (l.resource == RLIMIT_CPU)
        r.rlim_max = l.value + 1; // SIGXCPU first, then SIGKILL.
      if (::setrlimit(l.resource, &r) != 0)
        die(127);
    }
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0)
      die(127);
    ::execve(argv[0], argv.data(), env);
    die(127);
  }

  // Parent.
  inChild.reset();
  outWrite.reset();
  errWrite.reset();
  execWrite.reset();
  infoWrite.reset();
  int execErrno = 0;
  ssize_t got;
  do {
    got = ::read(execRead.fd, &execErrno, sizeof(execErrno));
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof(execErrno))) {
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return createStringError(
        std::error_code(execErrno, std::generic_category()),
        spec.errorPrefix + ": cannot start '" + spec.argv.front() +
            "': " + std::strerror(execErrno));
  }

  for (int fd : {inParent.fd, outRead.fd, errRead.fd, infoRead.fd})
    if (fd >= 0)
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  Fd pidfd(pidfdOpen(pid));
  std::string infoText;
  Fd nsInit; // pidfd of the sandbox's pid-namespace init.

  ProcessResult result;
  using Clock = std::chrono::steady_clock;
  // Without a limit, a deadline no run reaches.
  Clock::time_point deadline =
      Clock::now() + std::chrono::seconds(spec.timeoutSeconds
                                              ? *spec.timeoutSeconds
                                              : 100u * 365 * 24 * 3600);
  std::optional<Clock::time_point> drainUntil;
  size_t written = 0;
  bool exited = false, killed = false;
  if (spec.stdinText.empty())
    inParent.reset();

  auto killGroup = [&] {
    // The leader is not reaped before this, so `pid` still names our group.
    ::kill(-pid, SIGKILL);
    killed = true;
  };
  auto readInto = [&](Fd &fd, std::string &text) {
    char buffer[65536];
    while (true) {
      ssize_t n = ::read(fd.fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;
      if (n <= 0) {
        fd.reset();
        return;
      }
      size_t room = spec.maxOutputBytes > text.size()
                        ? spec.maxOutputBytes - text.size()
                        : 0;
      text.append(buffer, std::min<size_t>(room, n));
      if (static_cast<uint64_t>(n) > room) {
        result.outputTruncated = true;
        killGroup();
        outRead.reset();
        errRead.reset();
        return;
      }
    }
  };

  while (true) {
    bool pipesOpen = outRead.fd >= 0 || errRead.fd >= 0;
    if (exited && !pipesOpen)
      break;
    Clock::time_point now = Clock::now();
    if (!exited && !killed && now >= deadline) {
      result.timedOut = true;
      killGroup();
    }
    if (exited && drainUntil && now >= *drainUntil)
      break;

    SmallVector<pollfd, 4> fds;
    int inIdx = -1, outIdx = -1, errIdx = -1, pidIdx = -1;
    if (inParent.fd >= 0) {
      inIdx = fds.size();
      fds.push_back({inParent.fd, POLLOUT, 0});
    }
    if (outRead.fd >= 0) {
      outIdx = fds.size();
      fds.push_back({outRead.fd, POLLIN, 0});
    }
    if (errRead.fd >= 0) {
      errIdx = fds.size();
      fds.push_back({errRead.fd, POLLIN, 0});
    }
    int infoIdx = -1;
    if (infoRead.fd >= 0) {
      infoIdx = fds.size();
      fds.push_back({infoRead.fd, POLLIN, 0});
    }
    if (!exited && pidfd.fd >= 0) {
      pidIdx = fds.size();
      fds.push_back({pidfd.fd, POLLIN, 0});
    }
    Clock::time_point wakeAt = exited && drainUntil ? *drainUntil : deadline;
    // Wakes at least once a minute (a run without a limit has its deadline
    // a century away, past what an int of milliseconds holds).
    int waitMs = static_cast<int>(std::min<int64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(wakeAt - now)
            .count(),
        60000));
    if (killed && !exited)
      waitMs = 20; // Only waiting for the kill to land.
    if (pidfd.fd < 0 && !exited)
      waitMs = std::min(waitMs, 20);
    waitMs = std::max(waitMs, 0) + 1;
    int n = ::poll(fds.data(), fds.size(), waitMs);
    if (n < 0 && errno != EINTR) {
      killGroup(); // Cannot watch it any more; do not wait on it forever.
      break;
    }

    if (inIdx >= 0 && fds[inIdx].revents) {
      if (fds[inIdx].revents & POLLOUT) {
        ssize_t sent = ::send(inParent.fd, spec.stdinText.data() + written,
                              spec.stdinText.size() - written,
                              MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0)
          written += sent;
        else if (sent < 0 && errno != EAGAIN && errno != EINTR)
          inParent.reset(); // The script stopped reading; that is its right.
        if (written == spec.stdinText.size())
          inParent.reset();
      } else {
        inParent.reset();
      }
    }
    if (outIdx >= 0 && fds[outIdx].revents && outRead.fd >= 0)
      readInto(outRead, result.stdoutText);
    if (errIdx >= 0 && fds[errIdx].revents && errRead.fd >= 0)
      readInto(errRead, result.stderrText);
    if (infoIdx >= 0 && fds[infoIdx].revents) {
      char buffer[1024];
      ssize_t got = ::read(infoRead.fd, buffer, sizeof(buffer));
      if (got > 0 && infoText.size() < 4096)
        infoText.append(buffer, got);
      else if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
        infoRead.reset();
      // {"child-pid": N, ...}
      size_t at = infoText.find("\"child-pid\"");
      if (nsInit.fd < 0 && at != std::string::npos) {
        StringRef rest =
            StringRef(infoText).drop_front(at + 11).ltrim(" \t\n:");
        unsigned long long childPid;
        if (!consumeUnsignedInteger(rest, 10, childPid) && childPid > 1 &&
            (rest.empty() || !isDigit(rest.front())))
          nsInit.reset(pidfdOpen(static_cast<pid_t>(childPid)));
      }
    }
    if (!exited &&
        hasExited(pid, pidfd.fd, pidIdx >= 0 ? fds[pidIdx].revents : 0)) {
      exited = true;
      inParent.reset();
      // Sweep up anything the script left running in its group.
      killGroup();
      drainUntil = Clock::now() + std::chrono::milliseconds(kDrainMillis);
    }
  }

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (nsInit.fd >= 0) {
    // The init dies with bwrap (--die-with-parent), but on its own time.
    pollfd fd = {nsInit.fd, POLLIN, 0};
    while (::poll(&fd, 1, 5000) < 0 && errno == EINTR) {
    }
  }
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exitCode = 128 + result.signal;
  }
  return result;
}


//===----------------------------------------------------------------------===//
// Worker-style children
//===----------------------------------------------------------------------===//

tensorop::ChildOutcome tensorop::runWithLimit(StringRef program,
                                              ArrayRef<std::string> args,
                                              unsigned limitSeconds) {
  ChildOutcome o;
  std::string path = program.str();
  if (!program.contains('/')) {
    ErrorOr<std::string> found = sys::findProgramByName(program);
    if (!found) {
      o.failedToRun = true;
      o.message = "'" + path + "' not found on PATH";
      return o;
    }
    path = *found;
  }
  ProcessSpec spec;
  spec.argv.push_back(path);
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.limits = {{RLIMIT_CORE, 0}};
  if (limitSeconds)
    spec.timeoutSeconds = limitSeconds;
  else
    spec.timeoutSeconds.reset();
  spec.maxOutputBytes = 64ull << 20;
  Expected<ProcessResult> r = runProcess(spec);
  if (!r) {
    o.failedToRun = true;
    o.message = toString(r.takeError());
    return o;
  }
  o.stdoutText = std::move(r->stdoutText);
  o.stderrText = std::move(r->stderrText);
  o.killed = r->timedOut || r->outputTruncated;
  if (r->timedOut)
    o.message = "timed out after " + std::to_string(limitSeconds) + " s";
  else if (r->outputTruncated)
    o.message = "killed: printed more than 64 MiB";
  if (r->signal) {
    o.rc = -2;
    if (o.message.empty()) // As LLVM's ExecuteAndWait words it.
      o.message = strsignal(r->signal);
  } else {
    o.rc = r->exitCode;
  }
  return o;
}
