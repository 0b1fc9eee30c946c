import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Anchor, Button, Group } from '@mantine/core';
import { apiPermissions, contractResource, formatDateTime, statusActionsFrom, type Contract } from '@app/contracts';
import { api } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { navigationTargets } from '../../lib/navigation';
import { refreshAfterWrite } from '../../lib/query-keys';
import { InfoList } from '../../machinery/detail/info-list';
import type { Detail } from '../../machinery/detail/use-detail';
import { ExportButton } from '../../machinery/overview/export-button';
import type { Overview } from '../../machinery/overview/use-overview';


/**
 * The status actions of the read-only contract screen (spec §4), for User level and above: exactly the actions
 * offered from the current status. The answer is the changed contract, shown at once.
 */
export function StatusActions({ detail }: { detail: Detail }) {
  const { mayCall } = useAuth();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const id = detail.record?.id;
  const mutation = useMutation({
    mutationFn: (target: number) =>
      api.put<Contract>(`/${contractResource.apiPath}/${encodeURIComponent(String(id))}/update_status`, { contract_status_id: target }),
    onSuccess: async (row) => {
      detail.setRecord(row);
      await refreshAfterWrite(queryClient, contractResource.key);
    },
    onError: (error) => alerts.showFailure(error, 'changing the contract status'),
  });
  if (detail.mode !== 'read' || !detail.record || !mayCall(apiPermissions['PUT /contracts/:id/update_status'])) return null;
  const actions = statusActionsFrom(Number(detail.record.contract_status_id));
  return (
    <Group gap="xs" role="group" aria-label="Status actions">
      {actions.map((a) => (
        <Button
          key={a.target}
          variant="light"
          onClick={() => mutation.mutate(a.target)}
          disabled={mutation.isPending && mutation.variables !== a.target}
          loading={mutation.isPending && mutation.variables === a.target}
        >
          {a.label}
        </Button>
      ))}
    </Group>
  );
}

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
      ]}
    />
  );
}

/** Contracts.xlsx of the selected contracts, or of the current filter. */
export function ContractExport({ overview }: { overview: Overview<typeof contractResource> }) {
  return <ExportButton overview={overview} label="Export report" path={`/${contractResource.apiPath}/download_report`} filename="Contracts.xlsx" />;
}
