// Docker streams events and pull progress as JSON objects separated by newlines; a chunk may
// end in the middle of one.

/** Returns a chunk handler that calls `onObject` for every complete JSON line. */
export function jsonLineSplitter(onObject: (value: unknown) => void): (chunk: Buffer | string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString();
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          value = undefined; // not JSON (a proxy's text?): nothing to report
        }
        if (value !== undefined) onObject(value);
      }
      newline = pending.indexOf('\n');
    }
  };
}
