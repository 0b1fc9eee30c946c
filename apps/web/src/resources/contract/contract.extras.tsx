import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { formatDateTime, type Contract } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { InfoList } from '../../machinery/detail/info-list';
import type { Detail } from '../../machinery/detail/use-detail';

/** The contract's student (a link) and when bank info and PF status e-mails went out. */
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
          // Spec §2: the contract screen links to the payment overviews filtered by contract_id.
          label: 'Scholarship payments',
          value: (
            <>
              <Anchor component={Link} to={`/scholarshippayments/planned?contract_id=${c.id}`} size="sm">
                Planned
              </Anchor>
              {' · '}
              <Anchor component={Link} to={`/scholarshippayments/numbered?contract_id=${c.id}`} size="sm">
                Numbered
              </Anchor>
            </>
          ),
        },
      ]}
    />
  );
}
