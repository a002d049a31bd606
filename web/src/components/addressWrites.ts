/**
 * What a view kept in the address bar builds its next change on. Navigation lands a
 * render or more after it is asked for, so two quick changes must not each build on the
 * address of the last render (the first would be lost): each builds on the last one
 * written. An address that lands without having been written here (the back button, a
 * link) is taken as it is, and whatever was still on its way is forgotten.
 */
export class AddressWrites {
  private latest: URLSearchParams;
  /** Written, in order, and not landed yet. */
  private pending: string[] = [];

  constructor(initial: URLSearchParams) {
    this.latest = initial;
  }

  /** The address a change builds on. */
  base(): URLSearchParams {
    return this.latest;
  }

  wrote(next: URLSearchParams): void {
    this.latest = next;
    this.pending.push(next.toString());
  }

  /** An address was rendered. */
  landed(address: string): void {
    const index = this.pending.indexOf(address);
    if (index >= 0) {
      this.pending = this.pending.slice(index + 1);
      return;
    }
    this.pending = [];
    this.latest = new URLSearchParams(address);
  }
}
