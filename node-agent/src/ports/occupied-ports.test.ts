import { describe, expect, it } from 'vitest';
import { parseProcNetTcp, sortedUnique } from './occupied-ports.js';

// Lines in the format of the kernel's /proc/net/tcp and /proc/net/tcp6.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1594 1 000000008bac82f8 100 0 0 10 0
   1: 0100007F:1541 0100007F:88DC 06 00000000:00000000 03:00000E64 00000000     0        0 0 3 000000006655e6d5
   2: 0100007F:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2010 1 0000000000000000 100 0 0 10 0
   3: 0100007F:9C40 0100007F:0016 01 00000000:00000000 02:000AF2A6 00000000  1000        0 3011 2 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0
`;

describe('host TCP ports in use from /proc/net/tcp', () => {
  it('keeps listeners and connections, not sockets in TIME_WAIT', () => {
    expect(parseProcNetTcp(TCP).sort((a, b) => a - b)).toEqual([22, 2024, 40000]);
    expect(parseProcNetTcp(TCP6)).toEqual([8080]);
  });

  it('sorts and removes duplicates', () => {
    expect(sortedUnique([8080, 22, 8080, 0, 443])).toEqual([22, 443, 8080]);
  });
});
