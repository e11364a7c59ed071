/**
 * Counts the complete HTTP/1.1 responses in a byte stream (bodies framed by Content-Length or
 * chunked, as every bench stack frames them), for the warm-up client, which only needs to know
 * how many requests were answered and whether any answer was an error.
 */
export class ResponseCounter {
  answered = 0;
  errors = 0;
  private pending: Buffer = Buffer.alloc(0);
  private state: 'head' | 'body' | 'chunk-size' | 'chunk-data' | 'trailer' = 'head';
  private remaining = 0;

  push(data: Buffer): void {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, data]) : data;
    while (this.step());
  }

  /** Consumes what it can of the pending bytes; false when it needs more. */
  private step(): boolean {
    switch (this.state) {
      case 'head': {
        const end = this.pending.indexOf('\r\n\r\n');
        if (end < 0) return false;
        const head = this.pending.toString('latin1', 0, end);
        this.pending = this.pending.subarray(end + 4);
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
        if (status < 200 || status >= 400) this.errors++;
        if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
          this.state = 'chunk-size';
        } else {
          this.remaining = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          this.state = 'body';
        }
        return true;
      }
      case 'body':
      case 'chunk-data': {
        const take = Math.min(this.remaining, this.pending.length);
        this.pending = this.pending.subarray(take);
        this.remaining -= take;
        if (this.remaining > 0) return false;
        if (this.state === 'body') this.answered++;
        this.state = this.state === 'body' ? 'head' : 'chunk-size';
        return true;
      }
      case 'chunk-size': {
        const end = this.pending.indexOf('\r\n');
        if (end < 0) return false;
        const size = parseInt(this.pending.toString('latin1', 0, end), 16);
        this.pending = this.pending.subarray(end + 2);
        if (size === 0) this.state = 'trailer';
        else {
          this.remaining = size + 2; // the data and its CRLF
          this.state = 'chunk-data';
        }
        return true;
      }
      case 'trailer': {
        const end = this.pending.indexOf('\r\n');
        if (end < 0) return false;
        this.pending = this.pending.subarray(end + 2);
        if (end === 0) {
          this.answered++;
          this.state = 'head';
        }
        return true;
      }
    }
  }
}
