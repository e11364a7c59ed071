// When the kernel received what a read returns: the stamp of the last packet the read took (SO_TIMESTAMPNS, software
// receive stamps, CLOCK_REALTIME), put on the monotonic clock. An open loop that reads its answers up to a tick after
// they came times them from these stamps, as precisely as a loop that woke for each. No Node-API in it.
#ifndef BENCH_ARRIVAL_STAMP_H
#define BENCH_ARRIVAL_STAMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// the control messages of one read: room for its stamp (and for one more message the kernel might add)
typedef union {
  char bytes[128];
  // aligned as a control message header must be
  uint64_t align;
} arrival_control;

// asks the kernel to stamp what arrives on fd: 0, or -1 (its reads then have no stamp)
int arrival_stamps_on(int fd);

// CLOCK_REALTIME - CLOCK_MONOTONIC now, in ns: a stamp minus it is on the monotonic clock
int64_t arrival_clock_offset(void);

// reads up to len bytes of fd as read() does; *stamp_ns: when the last packet read arrived (monotonic, with `offset` from
// arrival_clock_offset()), or 0 when the kernel gave no stamp
ssize_t arrival_read(int fd, void *buffer, size_t len, arrival_control *control, int64_t offset, int64_t *stamp_ns);

#endif
