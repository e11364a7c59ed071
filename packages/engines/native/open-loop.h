// The open loop of --rate on the native core (open-loop.c), built on the loop's connections (wire-loop.h): its
// schedule, set up on a loop, pumped in slices, and freed. Internal to the addon: nothing here is exported.
#ifndef BENCH_OPEN_LOOP_H
#define BENCH_OPEN_LOOP_H

#include <stdint.h>

#include "arrival-stamp.h"
#include "wire-loop.h"

// the open loop's schedule and state (open-loop.c)
typedef struct schedule {
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

// makes `l` an open loop: its schedule, and the hooks its connections call; -1 when it could not allocate them
int open_setup(loop_t *l, double run_rate, int64_t index, int64_t threads, int64_t due_count, double start_ms, double period_ms);
void open_free(loop_t *l);
// the open loop for up to slice_ns: 1 once its period is over with nothing in flight, else 0
int open_pump(loop_t *l, int64_t slice_ns);
// the period's requests never sent (dropped, or not yet due when the run stopped); 0 for a closed loop
int64_t open_unsent(const loop_t *l);

#endif
