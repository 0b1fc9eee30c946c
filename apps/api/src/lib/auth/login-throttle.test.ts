import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

const policy = { freeFailures: 3, baseDelayMs: 1000, maxDelayMs: 8000, forgetAfterMs: 60_000 };

describe('LoginThrottle', () => {
  it('is free for the first failures, then delays, doubling per further failure up to the cap', () => {
    const throttle = new LoginThrottle(policy);
    let now = 0;
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      now += throttle.waitMs('k', now); // waits out the delay, then fails again
      throttle.fail('k', now);
      delays.push(throttle.waitMs('k', now));
    }
    expect(delays).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('keeps keys apart, and a success clears its key', () => {
    const throttle = new LoginThrottle({ ...policy, freeFailures: 1 });
    throttle.fail('a', 0);
    expect(throttle.waitMs('a', 10)).toBe(990);
    expect(throttle.waitMs('b', 10)).toBe(0);
    throttle.succeed('a');
    expect(throttle.waitMs('a', 10)).toBe(0);
  });

  it('forgets failures a while after the last one', () => {
    const throttle = new LoginThrottle(policy);
    throttle.fail('k', 0);
    throttle.fail('k', 0);
    throttle.fail('k', 60_000);
    expect(throttle.waitMs('k', 60_000)).toBe(0);
  });

  it('counts attempts under way: no more start than failures are left, and each ending frees its place (decision 053)', () => {
    const throttle = new LoginThrottle(policy);
    for (let i = 0; i < 3; i++) {
      expect(throttle.waitMs('k', 0)).toBe(0);
      throttle.begin('k', 0);
    }
    expect(throttle.waitMs('k', 0)).toBe(1000);
    throttle.done('k');
    expect(throttle.waitMs('k', 0)).toBe(0);
    throttle.fail('k', 0);
    throttle.fail('k', 0);
    // Three failures: closed, whatever is under way.
    throttle.begin('k', 0);
    throttle.fail('k', 0);
    expect(throttle.waitMs('k', 0)).toBe(1000);
  });
});
