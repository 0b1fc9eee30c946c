import { formatDate } from '../common/format.js';

/** Contract statuses (spec §4), seeded with these ids. */
export const CONTRACT_STATUSES = [
  { id: 1, name: 'Offer accepted' },
  { id: 2, name: 'Offer rejected' },
  { id: 3, name: 'Enrolled' },
  { id: 4, name: 'On a break' },
  { id: 5, name: 'Graduated' },
  { id: 6, name: 'Dropped out' },
] as const;

export type ContractStatusId = (typeof CONTRACT_STATUSES)[number]['id'];

/** The status a new contract starts in. */
export const INITIAL_CONTRACT_STATUS: ContractStatusId = 1;

/** The actions of the read-only contract screen: their target and the statuses they are offered from. */
export const STATUS_ACTIONS = [
  { label: 'Accept Offer', target: 1, from: [2] },
  { label: 'Reject Offer', target: 2, from: [1, 3] },
  { label: 'Enrole', target: 3, from: [1, 2, 4, 6] },
  { label: 'Take a break', target: 4, from: [3] },
  { label: 'Graduate', target: 5, from: [3] },
  { label: 'Drop-out', target: 6, from: [2, 3, 4, 5] },
] as const satisfies ReadonlyArray<{ label: string; target: ContractStatusId; from: readonly ContractStatusId[] }>;

export type StatusAction = (typeof STATUS_ACTIONS)[number];

/** The actions offered from a status, in the spec's order. */
export function statusActionsFrom(status: number): StatusAction[] {
  return STATUS_ACTIONS.filter((a) => (a.from as readonly number[]).includes(status));
}

export function canTransition(from: number, to: number): boolean {
  return statusActionsFrom(from).some((a) => a.target === to);
}

export function contractStatusName(id: number): string {
  return CONTRACT_STATUSES.find((s) => s.id === id)?.name ?? `Status ${id}`;
}

/** What decides whether a contract still takes payments and invoices (decision 035). */
export interface ContractStanding {
  application_number: string;
  active: boolean;
  contract_status_id: number;
  /** The day of the last status change (`YYYY-MM-DD`). */
  contract_status_date: string | null;
}

/**
 * Why a contract's scholarship payments or invoices may not be planned (`dueDate` undefined), or one due on
 * `dueDate` paid out or numbered, or null when it may (decision 035): never for a contract that is not active or
 * whose offer was rejected; after a student dropped out, only what was due up to that day (nothing more is planned).
 */
export function whyContractStopped(contract: ContractStanding, dueDate?: string): string | null {
  const n = contract.application_number;
  if (!contract.active) return `Contract ${n} is not active`;
  if (contract.contract_status_id === 2) return `The offer of contract ${n} was rejected`;
  if (contract.contract_status_id === 6) {
    const since = contract.contract_status_date;
    if (dueDate !== undefined && since !== null && dueDate <= since) return null;
    // Without the day, "before it was due" would be a guess: staff are told what lets it go on.
    if (dueDate !== undefined && since === null) {
      return `The student of contract ${n} dropped out on a date not recorded: what was due ${formatDate(dueDate)} waits until its Status date is entered`;
    }
    return `The student of contract ${n} dropped out${since ? ` on ${formatDate(since)}` : ''}${dueDate !== undefined ? `, before it was due (${formatDate(dueDate)})` : ''}`;
  }
  return null;
}
