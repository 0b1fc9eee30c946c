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
