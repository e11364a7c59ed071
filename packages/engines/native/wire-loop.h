// The wire engine's loop (wire-loop.c): connections on one epoll set, their requests, answers, failures and timeouts,
// and the closed loop's slice. A loop driven by a schedule (the open loop, open-loop.c) builds on it and gives it its
// hooks; the Node-API binding (wire-binding.c) builds on both. Nothing here knows of Node-API or of the open loop's
// schedule. Internal to the addon: nothing here is exported.
#ifndef BENCH_WIRE_LOOP_H
#define BENCH_WIRE_LOOP_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "http-framer.h"

// event records: RECORD doubles each, the first its kind, the second its connection
enum { EV_CONNECTED = 1, EV_ANSWER = 2, EV_FAILED = 3 };
enum { RECORD = 13 };
// failure kinds, as the engine's FailureKind
enum { F_CONNECT = 0, F_RECEIVE = 1, F_EXCEPTIONS = 2, F_TIMEOUT = 3 };
// answer flags
enum { A_BODY_OK = 1, A_CLOSES = 2, A_FIRST = 4 };

#define RETRY_AFTER_REFUSAL_NS 10000000LL
// the most events one epoll_wait hands over
#define BATCH 256
#define READ_BUFFER 65536

typedef struct {
  int fd;
  int slot;
  // told apart from the slot's earlier connections in epoll's events, which may still be in the batch being read
  uint32_t generation;
  uint8_t connected, closing;
  int64_t asked_ns;
  uint32_t answers;
  // requests in flight: their send times in a ring of the pipeline's depth (and, in the open loop, their due times)
  int64_t *sent;
  int64_t *due;
  uint32_t oldest, inflight;
  // requests queued and not yet written whole, and how far into the first one the kernel took
  uint32_t unsent;
  size_t written;
  uint8_t want_out;
  // a connection closed waits here before it opens again (a refused connect is retried after 10 ms)
  int64_t reopen_at;
  // the open loop: whether the connection is in the list of those with room for a request, and its neighbours there
  uint8_t ready;
  int ready_prev, ready_next;
  http_framer framer;
} conn_t;

struct loop;
struct schedule;

// what a loop driven by a schedule does at a connection's turns, where the closed loop sends its next request: the
// table it hands the loop, so that the connections' code calls into no unit above it
typedef struct {
  void (*connected)(struct loop *l, conn_t *c);
  void (*answered)(struct loop *l, conn_t *c);
  void (*ended)(struct loop *l, conn_t *c, int refused, int64_t now);
  // a slot whose wait after a refused connect is over: free to open a connection in
  void (*slot_free)(struct loop *l, conn_t *c);
  // reads what the connection has into the loop's buffer, and when it arrived (`now` where nothing better tells)
  ssize_t (*read)(struct loop *l, conn_t *c, int64_t now, int64_t *arrived);
} loop_hooks;

typedef struct loop {
  int ep;
  struct sockaddr_storage addr;
  socklen_t addr_len;
  conn_t *conns;
  int count;
  uint32_t depth;
  char *requests; // `depth` copies of the request, back to back: a pipeline leaves in one write
  size_t request_len;
  uint8_t *expected;
  framer_config framing;
  int64_t timeout_ns;
  int64_t budget;     // requests still to start; -1: no end (-d)
  uint32_t per_conn;  // answers a connection gives before it is closed and replaced; 0: no limit
  int64_t opening;
  int stopped;
  // connections not opened yet: the first slices open them, as many as their records have room for
  int unopened;
  // connections waiting to open again
  int waiting;
  // performance.now() = (monotonic ns - origin_ns) / 1e6
  int64_t origin_ns;
  int64_t last_sweep_ns;
  // the slice's events, and the text their messages point into
  double *records;
  size_t records_cap, records_len;
  // the records an epoll batch's events may write: each read frames at most its pipeline's answers and a failure
  size_t room;
  // where an event goes when the records are full (never, as the loop keeps room; counted, for JavaScript to tell)
  double scratch[RECORD];
  double lost;
  char *text;
  size_t text_cap, text_len;
  // the open loop's schedule and hooks (open-loop.c), or NULL for the closed loop
  struct schedule *open;
  const loop_hooks *hooks;
  uint8_t read_buffer[READ_BUFFER];
} loop_t;

int64_t now_ns(void);
void start_connect(loop_t *l, conn_t *c, int64_t now);
void send_requests(loop_t *l, conn_t *c, uint32_t count, int64_t now);
uint32_t room_on(const loop_t *l, const conn_t *c);
// reads and frames what epoll's batch of events told of
void handle_events(loop_t *l, const struct epoll_event *events, int n, int64_t now);
void sweep(loop_t *l, int64_t now);
void reopen_waiting(loop_t *l, int64_t now);
int any_in_flight(const loop_t *l);
// the closed loop for up to slice_ns (less when the records fill): 1 once the run is over (a -n run's budget spent, with
// nothing in flight), else 0
int closed_pump(loop_t *l, int64_t slice_ns);
// closes every connection
void close_connections(loop_t *l);
// closes and frees what the loop holds (not the loop itself, nor its schedule)
void release_loop(loop_t *l);

#endif
