import { describe, expect, it } from 'vitest';
import { whyContractStopped } from './contract-status.js';

describe('whyContractStopped (decision 035)', () => {
  const contract = { application_number: 'A000007', active: true, contract_status_id: 3, contract_status_date: '2026-03-31' };
  it('lets an active contract in any other status be planned, paid and invoiced', () => {
    for (const status of [1, 3, 4, 5]) {
      expect(whyContractStopped({ ...contract, contract_status_id: status })).toBeNull();
      expect(whyContractStopped({ ...contract, contract_status_id: status }, '2027-01-01')).toBeNull();
    }
  });
  it('refuses a contract that is not active, and one whose offer was rejected', () => {
    expect(whyContractStopped({ ...contract, active: false }, '2026-01-01')).toBe('Contract A000007 is not active');
    expect(whyContractStopped({ ...contract, contract_status_id: 2 })).toBe('The offer of contract A000007 was rejected');
  });
  it('after a drop-out pays only what was due up to that day, and plans nothing', () => {
    const dropped = { ...contract, contract_status_id: 6 };
    expect(whyContractStopped(dropped, '2026-03-01')).toBeNull();
    expect(whyContractStopped(dropped, '2026-03-31')).toBeNull();
    expect(whyContractStopped(dropped, '2026-04-01')).toBe('The student of contract A000007 dropped out on 31-03-2026, before it was due (01-04-2026)');
    expect(whyContractStopped(dropped)).toBe('The student of contract A000007 dropped out on 31-03-2026');
    expect(whyContractStopped({ ...dropped, contract_status_date: null }, '2026-03-01')).toBe('The student of contract A000007 dropped out on a date not recorded: what was due 01-03-2026 waits until its Status date is entered');
  });
});
