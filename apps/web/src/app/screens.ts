import { uiPermissions, type Level } from '@app/contracts';

export interface MenuEntry {
  label: string;
  path: string;
  /** Hidden below this level (spec §6); shown to every logged-in user otherwise. */
  level?: Level;
}

export interface MenuGroup {
  label: string;
  /** The whole menu is hidden below this level. */
  level?: Level;
  entries: MenuEntry[];
}

/** The menus of the top bar (spec §2 "Top bar"). */
export const menus: readonly MenuGroup[] = [
  {
    label: 'Manage',
    level: uiPermissions['menu.manage'],
    entries: [
      { label: 'Countries', path: '/countries' },
      { label: 'Programs', path: '/programs' },
      { label: 'Universities', path: '/universities' },
      { label: 'Student Fees', path: '/studentfees' },
      { label: 'Milestones', path: '/milestones' },
      { label: 'Configuration', path: '/config', level: uiPermissions['route.config'] },
      { label: 'Users', path: '/users' },
      { label: 'Outbox', path: '/outbox' },
      { label: 'Log Events', path: '/events' },
    ],
  },
  {
    label: 'Students',
    entries: [
      { label: 'Students Overview', path: '/students' },
      { label: 'Contracts Overview', path: '/contracts' },
    ],
  },
  {
    label: 'Invoicing',
    entries: [
      { label: 'Planned Invoices', path: '/invoices/planned' },
      { label: 'Numbered Invoices', path: '/invoices/numbered' },
      { label: 'Credit Notes', path: '/invoices/creditnote' },
      { label: 'Invoice Payments', path: '/invoicepayments' },
    ],
  },
  {
    label: 'Payments',
    entries: [
      { label: 'Planned Scholarship Payments', path: '/scholarshippayments/planned' },
      { label: 'Numbered Scholarship Payments', path: '/scholarshippayments/numbered' },
      { label: 'Scholarship Overview', path: '/scholarshippayments/by_scholarship' },
    ],
  },
];

/** Log Events is for everyone (spec §6): users who do not see the Manage menu get it as a link of its own. */
export const logEventsEntry: MenuEntry = { label: 'Log Events', path: '/events' };

export interface PlannedScreen {
  path: string;
  title: string;
  level?: Level;
}

/** Screens of the spec's route table (§2) not built yet: they answer "Coming soon" until their issue lands. */
export const plannedScreens: readonly PlannedScreen[] = [
  { path: '/events', title: 'Log Events' },
  { path: '/users', title: 'Users' },
  { path: '/user/:id', title: 'User' },
  { path: '/universities', title: 'Universities' },
  { path: '/university/:id', title: 'University' },
  { path: '/programs', title: 'Programs' },
  { path: '/program/:id', title: 'Program' },
  { path: '/studentfees', title: 'Student Fees' },
  { path: '/studentfee/:id', title: 'Student Fee' },
  { path: '/milestones', title: 'Milestones' },
  { path: '/milestone/:id', title: 'Milestone' },
  { path: '/students', title: 'Students' },
  { path: '/student/:id', title: 'Student' },
  { path: '/contracts', title: 'Contracts' },
  { path: '/contract/:id', title: 'Contract' },
  { path: '/scholarshippayments/planned', title: 'Planned Scholarship Payments' },
  { path: '/scholarshippayments/numbered', title: 'Numbered Scholarship Payments' },
  { path: '/scholarshippayment/planned/:id', title: 'Planned Scholarship Payment' },
  { path: '/scholarshippayment/numbered/:id', title: 'Numbered Scholarship Payment' },
  { path: '/invoicepayments', title: 'Invoice Payments' },
  { path: '/invoicepayment/:id', title: 'Invoice Payment' },
];
