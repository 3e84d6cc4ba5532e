import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.js';

const alice = { id: 1, username: 'alice', nickname: null, isAdmin: false };
const bob = { id: 2, username: 'bob', nickname: null, isAdmin: true };

describe('the session cache', () => {
  it('trusts an entry for its TTL, and never past the session’s expiry', () => {
    const cache = new SessionCache(30_000);
    cache.put(cache.ticket(), 'a', alice, 1_000_000, 0);
    cache.put(cache.ticket(), 'b', bob, 10_000, 0);
    expect(cache.get('a', 29_999)).toEqual(alice);
    expect(cache.get('a', 30_000)).toBeUndefined();
    expect(cache.get('b', 9_999)).toEqual(bob);
    expect(cache.get('b', 10_000)).toBeUndefined();
    expect(cache.size).toBe(0);
    // A session already past its expiry is not remembered at all.
    cache.put(cache.ticket(), 'c', alice, 5, 10);
    expect(cache.get('c', 10)).toBeUndefined();
  });

  it('drops every token of a user, and only theirs', () => {
    const cache = new SessionCache(30_000);
    cache.put(cache.ticket(), 'a1', alice, 1e9, 0);
    cache.put(cache.ticket(), 'a2', alice, 1e9, 0);
    cache.put(cache.ticket(), 'b1', bob, 1e9, 0);
    cache.dropUser(alice.id);
    expect(cache.get('a1', 1)).toBeUndefined();
    expect(cache.get('a2', 1)).toBeUndefined();
    expect(cache.get('b1', 1)).toEqual(bob);
    cache.clear();
    expect(cache.get('b1', 1)).toBeUndefined();
  });

  it('remembers nothing a lookup read before a drop (it may be what was just revoked)', () => {
    const cache = new SessionCache(30_000);
    const ticket = cache.ticket();
    cache.dropUser(bob.id);
    cache.put(ticket, 'a', alice, 1e9, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    const afterClear = cache.ticket();
    cache.clear();
    cache.put(afterClear, 'a', alice, 1e9, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.put(cache.ticket(), 'a', alice, 1e9, 0);
    expect(cache.get('a', 1)).toEqual(alice);
  });

  it('keeps at most its capacity, forgetting the oldest first; a TTL of 0 caches nothing', () => {
    const cache = new SessionCache(30_000, 2);
    cache.put(cache.ticket(), 'a', alice, 1e9, 0);
    cache.put(cache.ticket(), 'b', bob, 1e9, 0);
    cache.put(cache.ticket(), 'c', alice, 1e9, 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toEqual(alice);
    cache.dropUser(alice.id);
    expect(cache.get('b', 1)).toEqual(bob);
    const off = new SessionCache(0);
    off.put(off.ticket(), 'a', alice, 1e9, 0);
    expect(off.size).toBe(0);
  });
});
