import { Link } from 'react-router';
import { Anchor, Group } from '@mantine/core';
import { type Contract } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { navigationTargets } from '../../lib/navigation';
import { InfoList } from '../../machinery/detail/info-list';
import type { Detail } from '../../machinery/detail/use-detail';

/**
 * The overviews a contract links to, filtered by its id (spec §2). Invoice payments and scholarship payments are
 * built by their own issues (14, 15); the links go by route.
 */
export function contractOverviewLinks(contractId: number | string): { label: string; to: string }[] {
  const q = `?contract_id=${encodeURIComponent(String(contractId))}`;
  return [
    { label: 'Planned invoices', to: `/invoices/planned${q}` },
    { label: 'Numbered invoices', to: `/invoices/numbered${q}` },
    { label: 'Credit notes', to: `/invoices/creditnote${q}` },
    { label: 'Invoice payments', to: `/invoicepayments${q}` },
    { label: 'Planned scholarship payments', to: `/scholarshippayments/planned${q}` },
    { label: 'Numbered scholarship payments', to: `/scholarshippayments/numbered${q}` },
  ];
}

/** The contract's student (a link), when bank info and PF status e-mails went out, and its overviews. */
export function ContractInfo({ detail }: { detail: Detail }) {
  if (!detail.record) return null;
  const c = detail.record as unknown as Contract;
  return (
    <InfoList
      label="Contract information"
      items={[
        {
          label: 'Student',
          value: (
            <Anchor component={Link} to={navigationTargets.student(c.student_id)} size="sm">
              {c.student_name}
            </Anchor>
          ),
        },
        { label: 'Bank info requested', value: formatDateTime(c.bankinfo_emailrequest_timestamp) },
        { label: 'Bank info updated', value: formatDateTime(c.bankinfo_updated_timestamp) },
        { label: 'PF status sent', value: formatDateTime(c.pf_status_email_timestamp) },
        {
          label: 'Overviews',
          value: (
            <Group gap="sm" component="nav" aria-label="Overviews of this contract">
              {contractOverviewLinks(c.id).map((l) => (
                <Anchor key={l.to} component={Link} to={l.to} size="sm">
                  {l.label}
                </Anchor>
              ))}
            </Group>
          ),
        },
      ]}
    />
  );
}
