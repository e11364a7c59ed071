/**
 * Turns at the run's database for TechEmpower's checks within one bench process: a counted burst (or the update
 * check, which reads World before and after) has the database to itself, exclusive; any other request that reads
 * it (a first answer, a query case, a later Date check, another scenario's check) is shared, and waits while an
 * exclusive turn runs, so nothing else falls into a burst's counts. First come, first served: a waiting exclusive
 * turn holds back the shared ones that come after it.
 */
export class DatabaseWindows {
  private readers = 0;
  private writer = false;
  private readonly waiting: Array<{ readonly exclusive: boolean; readonly start: () => void }> = [];

  shared<T>(work: () => Promise<T>): Promise<T> {
    return this.turn(false, work);
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.turn(true, work);
  }

  private async turn<T>(exclusive: boolean, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push({ exclusive, start });
      this.next();
    });
    try {
      return await work();
    } finally {
      if (exclusive) this.writer = false;
      else this.readers--;
      this.next();
    }
  }

  private next(): void {
    for (let first = this.waiting[0]; first; first = this.waiting[0]) {
      if (this.writer || (first.exclusive && this.readers > 0)) return;
      this.waiting.shift();
      if (first.exclusive) this.writer = true;
      else this.readers++;
      first.start();
      if (first.exclusive) return;
    }
  }
}

/** This process's turns at its database. */
export const databaseWindows = new DatabaseWindows();
