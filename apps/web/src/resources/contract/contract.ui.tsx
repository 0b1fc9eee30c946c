import type { ReactNode } from 'react';
import { Tabs } from '@mantine/core';
import { contractResource } from '@app/contracts';
import type { Detail } from '../../machinery/detail/use-detail';
import { defineResourceUi } from '../../machinery/resource-ui';
import { contractCells } from './contract.cells';
import { ContractDocuments } from './contract.documents';
import { ContractInfo } from './contract.extras';
import { contractFields, deriveContractValues } from './contract.fields';
import { contractFilters } from './contract.filters';

/**
 * The contract screen (spec §2): tabs General (the form) and Documents (n), n being the contract's number of
 * files. A new contract has no documents yet: its screen is the form alone.
 */
function contractLayout(form: ReactNode, detail: Detail) {
  const { record } = detail;
  if (detail.mode === 'new' || !record) return form;
  return (
    <Tabs defaultValue="general" keepMounted>
      <Tabs.List>
        <Tabs.Tab value="general">General</Tabs.Tab>
        <Tabs.Tab value="documents">{`Documents (${Number(record.files ?? 0)})`}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="general" pt="sm">
        {form}
      </Tabs.Panel>
      <Tabs.Panel value="documents" pt="sm">
        <ContractDocuments contractId={Number(record.id)} onChange={detail.refresh} />
      </Tabs.Panel>
    </Tabs>
  );
}

export const contractUi = defineResourceUi({
  descriptor: contractResource,
  cells: contractCells,
  fields: contractFields,
  filters: contractFilters,
  detail: {
    info: (detail) => <ContractInfo detail={detail} />,
    layout: contractLayout,
    derive: deriveContractValues,
  },
});
