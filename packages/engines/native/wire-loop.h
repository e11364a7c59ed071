// What the wire engine's native loops share: a connection, the loop's state, and the calls the open loop (open-loop.c)
// makes into the connections' code (wire-loop.c). Internal to the addon: nothing here is exported.
#ifndef BENCH_WIRE_LOOP_H
#define BENCH_WIRE_LOOP_H

#include <node_api.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "arrival-stamp.h"
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

// the open loop's schedule and state (open-loop.c)
typedef struct {
  // thread `index` of `threads` sends the run's requests index, index + threads, ...: its j-th is due at
  // start_ns + (j * threads + index) / run_rate seconds, as arrival-schedule.ts's atMs(j)
  double run_rate;
  int64_t index, threads;
  // requests this thread sends in all, and when its period ends
  int64_t due_count;
  int64_t start_ns, end_ns;
  // the next request to send, by its index in the schedule: those from it up to `scheduled` are due and waiting
  int64_t next_to_send, scheduled;
  // the period is over: requests still waiting are dropped
  int closed;
  // the last request fell due and the period is over: no connection opens any more (those opening may still connect)
  int ending;
  // connections open or opening; slots free to open one in (a stack); those with room for a request, oldest first
  int live;
  int *free_slots;
  int free_len;
  int ready_head, ready_tail;
  // CLOCK_REALTIME - CLOCK_MONOTONIC, measured at each slice: the arrival stamps' clock
  int64_t clock_offset;
  arrival_control control;
} schedule_t;

typedef struct {
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
  napi_ref records_ref, text_ref;
  // the open loop's, or NULL for the closed loop
  schedule_t *open;
  uint8_t read_buffer[READ_BUFFER];
} loop_t;

// wire-loop.c: the connections
int64_t now_ns(void);
void start_connect(loop_t *l, conn_t *c, int64_t now);
void send_requests(loop_t *l, conn_t *c, uint32_t count, int64_t now);
uint32_t room_on(const loop_t *l, const conn_t *c);
// reads and frames what epoll's batch of events told of
void handle_events(loop_t *l, const struct epoll_event *events, int n, int64_t now);
void sweep(loop_t *l, int64_t now);
void reopen_waiting(loop_t *l, int64_t now);
int any_in_flight(const loop_t *l);

// open-loop.c: the open loop's part in a connection's events, and its slice
int open_setup(loop_t *l, double run_rate, int64_t index, int64_t threads, int64_t due_count, double start_ms, double period_ms);
void open_free(loop_t *l);
void open_connected(loop_t *l, conn_t *c);
void open_answered(loop_t *l, conn_t *c);
void open_ended(loop_t *l, conn_t *c, int refused, int64_t now);
// a slot whose wait after a refused connect is over: free to open a connection in
void open_slot_free(loop_t *l, conn_t *c);
int open_pump(loop_t *l, int64_t slice_ns);
// a read's answers: when they arrived (the read's stamp, where the kernel gave one that can be right), else `now`
int64_t open_arrival(const conn_t *c, int64_t stamp, int64_t now);

#endif
