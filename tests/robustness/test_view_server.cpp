// Issue 24: the server of `tendril view` (the real command on 127.0.0.1, a free port, real sockets)
// answers a malformed Range header with 400/416 and an oversized request head with 431, and goes
// on; serves no file that resolves outside its run folder (a link out of the run); survives a
// client that leaves in the middle of a file; and serves connections concurrently, so slow and
// idle clients do not hold up others and are closed after the timeouts of docs/visualisation.md
// (5 s idle, 5 s for a request head), and past 64 connections a new one gets 503.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "support/cli_process.hpp"

namespace tendril::robustness {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A TCP connection to 127.0.0.1:port (-1 if refused); reads give up after `timeout_s`.
int connect_local(int port, int timeout_s = 3) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    ::close(fd);
    return -1;
  }
  const timeval t{timeout_s, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, sizeof(t));
  return fd;
}

/// Everything the peer sends until it closes or `fd`'s read timeout passes.
std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof(buffer), 0)) > 0;)
    out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

/// The status code of an HTTP response (0 if there is none).
int status_of(const std::string& response) {
  return response.rfind("HTTP/1.1 ", 0) == 0 && response.size() >= 12
             ? std::stoi(response.substr(9, 3))
             : 0;
}

/// The body of an HTTP response.
std::string body_of(const std::string& response) {
  const std::size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

/// True once the peer has closed `fd` (within `timeout_s`).
bool closed_by_peer(int fd, double timeout_s) {
  pollfd p{fd, POLLIN, 0};
  char byte;
  return ::poll(&p, 1, static_cast<int>(timeout_s * 1000)) > 0 &&
         ::recv(fd, &byte, 1, MSG_DONTWAIT) == 0;
}

class ViewServer : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    const CliResult r = run_cli({"run", "rod.yaml", "--out", "run"}, dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  void TearDown() override {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
    ::close(out_);
  }

  /// Starts `tendril view <runs> --port 0` and reads the port it prints.
  void start_view(const std::vector<std::string>& runs) {
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(pipe_fds[1], STDOUT_FILENO);
      ::dup2(pipe_fds[1], STDERR_FILENO);
      if (::chdir(dir_.c_str()) != 0) ::_exit(126);
      std::vector<std::string> args = {TENDRIL_CLI, "view"};
      args.insert(args.end(), runs.begin(), runs.end());
      args.insert(args.end(), {"--port", "0"});
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(TENDRIL_CLI, argv.data());
      ::_exit(127);
    }
    ::close(pipe_fds[1]);
    out_ = pipe_fds[0];
    std::string printed;
    const std::string mark = "http://127.0.0.1:";
    const auto port_printed = [&] {
      const std::size_t at = printed.find(mark);
      return at != std::string::npos && printed.find('/', at + mark.size()) != std::string::npos;
    };
    for (const auto start = Clock::now(); !port_printed() && seconds_since(start) < 20;) {
      pollfd p{out_, POLLIN, 0};
      char buffer[256];
      if (::poll(&p, 1, 100) <= 0) continue;
      const ssize_t n = ::read(out_, buffer, sizeof(buffer));
      ASSERT_GT(n, 0) << printed;
      printed.append(buffer, static_cast<std::size_t>(n));
    }
    ASSERT_TRUE(port_printed()) << printed;
    port_ = std::stoi(printed.substr(printed.find(mark) + mark.size()));
  }

  /// One request (Connection: close) with extra header lines; the whole response.
  std::string get(const std::string& path, const std::string& headers = "") const {
    const int fd = connect_local(port_);
    if (fd < 0) return "";
    const std::string request =
        "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "Connection: close\r\n\r\n";
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    const std::string response = read_all(fd);
    ::close(fd);
    return response;
  }

  /// True while the server runs (once it has ended, it is reaped and forgotten).
  bool server_running() {
    if (::waitpid(pid_, nullptr, WNOHANG) == 0) return true;
    pid_ = -1;
    return false;
  }

  pid_t pid_ = -1;
  int out_ = -1;
  int port_ = 0;
};

TEST_F(ViewServer, MalformedRangeIsRefusedAndTheServerGoesOn) {
  start_view({"run"});
  const std::string json = slurp(dir_ / "run" / "run.json");
  const std::string huge(23, '9');
  for (const std::string& range : std::vector<std::string>{
           "bytes= -5", "bytes=" + huge + "-", "bytes=5-3", "garbage", "bytes=1-2-3", "bytes=-",
           "bytes=0-1x", "bytes=-0", "bytes=" + huge + "-" + huge, "bytes=0x10-"}) {
    const std::string response = get("/run/0/run.json", "Range: " + range + "\r\n");
    const int status = status_of(response);
    EXPECT_TRUE(status == 400 || status == 416) << range << ": " << response;
    EXPECT_EQ(body_of(response).find(json.substr(0, 20)), std::string::npos) << range;
    ASSERT_TRUE(server_running()) << range;
    const std::string next = get("/run/0/run.json");
    ASSERT_EQ(status_of(next), 200) << "after " << range << ": " << next;
    EXPECT_EQ(body_of(next), json);
  }
  // on one connection: the request after an unsatisfiable range is answered too
  const int fd = connect_local(port_);
  const std::string two =
      "GET /run/0/run.json HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=5-3\r\n\r\n"
      "GET /run/0/run.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  ::send(fd, two.data(), two.size(), MSG_NOSIGNAL);
  const std::string both = read_all(fd);
  ::close(fd);
  EXPECT_EQ(status_of(both), 416) << both.substr(0, 200);
  const std::size_t second = both.find("HTTP/1.1 ", 1);
  ASSERT_NE(second, std::string::npos) << both.substr(0, 200);
  EXPECT_EQ(status_of(both.substr(second)), 200);
  EXPECT_TRUE(body_of(both.substr(second)) == json) << "the second body is not run.json";
  // well-formed ranges against the file's own bytes: a suffix, an end past the file (clamped)
  EXPECT_EQ(body_of(get("/run/0/run.json", "Range: bytes=-5\r\n")), json.substr(json.size() - 5));
  EXPECT_EQ(body_of(get("/run/0/run.json", "Range: bytes=3-" + huge + "\r\n")), json.substr(3));
  EXPECT_EQ(body_of(get("/run/0/run.json", "Range: bytes=2-4\r\n")), json.substr(2, 3));
}

TEST_F(ViewServer, OversizedRequestHeadIs431) {
  start_view({"run"});
  const std::string response =
      get("/run/0/run.json", "X-Padding: " + std::string(20000, 'a') + "\r\n");
  EXPECT_EQ(status_of(response), 431) << response.substr(0, 200);
  EXPECT_EQ(status_of(get("/run/0/run.json")), 200);
}

TEST_F(ViewServer, FileLinkedOutOfTheRunIsNotServed) {
  // "etc": run.json is a link to /etc/passwd (the case); "array": a listed array is a link
  // to a copy outside the run (a readable run on every version); "alias": a link to the whole run
  // folder, whose files are inside it (served)
  fs::copy(dir_ / "run", dir_ / "etc");
  fs::remove(dir_ / "etc" / "run.json");
  fs::create_symlink("/etc/passwd", dir_ / "etc" / "run.json");
  fs::copy(dir_ / "run", dir_ / "array");
  fs::create_directories(dir_ / "outside");
  fs::rename(dir_ / "array" / "frame_time.npy", dir_ / "outside" / "frame_time.npy");
  fs::create_symlink(dir_ / "outside" / "frame_time.npy", dir_ / "array" / "frame_time.npy");
  fs::create_directory_symlink(dir_ / "run", dir_ / "alias");
  start_view({"etc", "array", "alias"});

  const std::string passwd = slurp("/etc/passwd").substr(0, 16);
  const std::string etc = get("/run/0/run.json");
  EXPECT_TRUE(status_of(etc) == 403 || status_of(etc) == 404) << etc;
  EXPECT_EQ(etc.find(passwd), std::string::npos) << etc;
  const std::string array = get("/run/1/frame_time.npy");
  EXPECT_TRUE(status_of(array) == 403 || status_of(array) == 404) << array;
  EXPECT_EQ(array.find("NUMPY"), std::string::npos) << array;
  // the page says why; the run's other files and the linked run folder are served
  const std::string runs = get("/api/runs");
  EXPECT_NE(runs.find("frame_time.npy: resolves to"), std::string::npos) << runs;
  EXPECT_EQ(body_of(get("/run/1/run.json")), slurp(dir_ / "array" / "run.json"));
  EXPECT_EQ(body_of(get("/run/2/run.json")), slurp(dir_ / "run" / "run.json"));
  EXPECT_EQ(body_of(get("/run/2/frame_time.npy")), slurp(dir_ / "run" / "frame_time.npy"));
}

TEST_F(ViewServer, ClientGoneMidDownloadDoesNotEndTheServer) {
  start_view({"run"});
  // a listed file far larger than the socket buffers (replaced after the server checked the run)
  write_text(dir_ / "run" / "positions.npy", std::string(64 << 20, 'x'));
  for (int k = 0; k < 3; ++k) {
    const int fd = connect_local(port_);
    const std::string request = "GET /run/0/positions.npy HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char some[100];
    EXPECT_GT(::recv(fd, some, sizeof(some), 0), 0);
    const linger reset{1, 0};  // close at once, unread data and all
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
    ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ASSERT_TRUE(server_running()) << "after client " << k;
  }
  EXPECT_EQ(status_of(get("/run/0/run.json")), 200);
}

TEST_F(ViewServer, SlowAndIdleClientsDoNotHoldUpOthers) {
  start_view({"run"});
  const std::string json = slurp(dir_ / "run" / "run.json");
  const auto start = Clock::now();
  std::vector<int> idle;
  for (int i = 0; i < 50; ++i) idle.push_back(connect_local(port_));
  // a slow client: one byte of a request head every second until the server closes it
  double slow_closed_at = -1;
  std::thread slow([&] {
    const int fd = connect_local(port_);
    const std::string request = "GET /run/0/run.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    for (std::size_t i = 0; i < request.size() && seconds_since(start) < 12; ++i) {
      if (closed_by_peer(fd, 1.0)) {
        slow_closed_at = seconds_since(start);
        break;
      }
      ::send(fd, &request[i], 1, MSG_NOSIGNAL);
    }
    ::close(fd);
  });
  // meanwhile normal requests are answered at once (a server of one connection at a time is held
  // by the first idle client until it drops it)
  for (int k = 0; k < 3; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto asked = Clock::now();
    const std::string response = get("/run/0/run.json");
    EXPECT_LT(seconds_since(asked), 2.0);
    EXPECT_EQ(status_of(response), 200) << response.substr(0, 200);
    EXPECT_TRUE(body_of(response) == json) << "the body is not run.json";
  }
  // the idle clients are closed after the idle timeout (5 s), the slow one after the head timeout
  // (5 s after its first byte)
  int closed = 0;
  for (const int fd : idle) {
    closed += closed_by_peer(fd, std::max(0.0, 8.0 - seconds_since(start)));
    ::close(fd);
  }
  EXPECT_EQ(closed, 50);
  slow.join();
  EXPECT_GT(slow_closed_at, 4.0);
  EXPECT_LT(slow_closed_at, 8.0);
}

TEST_F(ViewServer, ConnectionsPastTheCapGet503) {
  start_view({"run"});
  std::vector<int> held;
  for (int i = 0; i < 64; ++i) held.push_back(connect_local(port_));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // all accepted
  const auto asked = Clock::now();
  const std::string refused = get("/run/0/run.json");
  EXPECT_LT(seconds_since(asked), 2.0);
  EXPECT_EQ(status_of(refused), 503) << refused;
  for (const int fd : held) ::close(fd);
  std::string served;
  for (int i = 0; i < 20 && status_of(served) != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    served = get("/run/0/run.json");
  }
  EXPECT_EQ(status_of(served), 200) << served;
}

}  // namespace
}  // namespace tendril::robustness
