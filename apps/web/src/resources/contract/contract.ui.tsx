import { useState, type ReactNode } from 'react';
import { Tabs } from '@mantine/core';
import { apiPermissions, contractResource } from '@app/contracts';
import { useAuth } from '../../lib/auth';
import type { Detail } from '../../machinery/detail/use-detail';
import { defineResourceUi } from '../../machinery/resource-ui';
import { contractCells } from './contract.cells';
import { ContractDocuments } from './contract.documents';
import { ContractInfo } from './contract.extras';
import { ContractMails, useFollowMails } from './contract.mails';
import { ContractImportMenu } from './contract.imports';
import { contractFields, deriveContractValues } from './contract.fields';
import { contractFilters } from './contract.filters';

/**
 * The contract screen (spec §2): tabs General (the form), Documents (n), n being the contract's number of
 * files, and E-mails (the contract's mails in the outbox) for the roles that may read the outbox. A new
 * contract has no documents or mails yet: its screen is the form alone.
 */
function contractLayout(form: ReactNode, detail: Detail) {
  if (detail.mode === 'new' || !detail.record) return form;
  return <ContractTabs form={form} detail={detail} />;
}

function ContractTabs({ form, detail }: { form: ReactNode; detail: Detail }) {
  const { mayCall } = useAuth();
  const record = detail.record!;
  const [tab, setTab] = useState<string | null>('general');
  const readsMails = mayCall(apiPermissions['GET /outbox']);
  // After a mail action the contract is read again once the mail went out (its Bank Request, PF Status Sent).
  useFollowMails(Number(record.id), detail.refresh, readsMails);
  return (
    <Tabs value={tab} onChange={setTab} keepMounted>
      <Tabs.List>
        <Tabs.Tab value="general">General</Tabs.Tab>
        <Tabs.Tab value="documents">{`Documents (${Number(record.files ?? 0)})`}</Tabs.Tab>
        {readsMails && <Tabs.Tab value="mails">E-mails</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value="general" pt="sm">
        {form}
      </Tabs.Panel>
      <Tabs.Panel value="documents" pt="sm">
        <ContractDocuments contractId={Number(record.id)} onChange={detail.refresh} />
      </Tabs.Panel>
      {readsMails && (
        <Tabs.Panel value="mails" pt="sm">
          {/* Loaded when the tab is opened, not with every contract. */}
          {tab === 'mails' && <ContractMails contractId={Number(record.id)} record={record} onSettled={detail.refresh} />}
        </Tabs.Panel>
      )}
    </Tabs>
  );
}

export const contractUi = defineResourceUi({
  descriptor: contractResource,
  cells: contractCells,
  fields: contractFields,
  filters: contractFilters,
  overview: { extras: (overview) => <ContractImportMenu overview={overview} /> },
  detail: {
    info: (detail) => <ContractInfo detail={detail} />,
    layout: contractLayout,
    derive: deriveContractValues,
  },
});
