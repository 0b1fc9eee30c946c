import { describe, expect, it } from 'vitest';
import { apiPermissions } from '../auth/permissions.js';
import { contractResource } from '../resources/contract.js';
import { resources } from '../resources/index.js';
import { invoiceResource } from '../resources/invoice.js';
import { invoicePaymentResource } from '../resources/invoice-payment.js';
import { countryResource } from '../resources/country.js';
import { contractFileResource } from '../resources/contract-file.js';
import { batchRequestSchema, runsAsBatch, whyNotOffered } from './actions.js';
import { actionsOf, findAction } from './resource-actions.js';
import { readOnlyFieldsOf, viewsOf, whyNotDeletable, type AnyResource } from './resource.js';

describe('actions declared beside their resource', () => {
  it('gives a resource its own actions and Bulk Edit, with the export where the spec’s menus name it', () => {
    expect(actionsOf(contractResource).map((a) => a.name)).toEqual([
      'update_status',
      'mark_sent',
      'send_bankinfo_request',
      'send_pf_status',
      'send_email_paymentinfo',
      'request_refund_info',
      'plan_invoices',
      'switch_to_semester_payment',
      'plan_scholarship_payments',
      'create_transaction_fee',
      'download_invoice_details',
      'download_payment_status',
      'download_pf_paymentstatus',
      'download_balance',
      'download_report',
      'download_payments_due',
      'download_student_agreements',
      'download_paymentstatus',
      'download_paymentstatus_period',
      'import_dream_apply',
      'import',
      'import_bankinfo',
      'bulk_edit',
    ]);
    const listed = (resource: AnyResource) => actionsOf(resource).filter((a) => a.scope === 'list').map((a) => a.label);
    expect(listed(invoiceResource)).toEqual(['Export Selection', 'Export Open Invoices']);
    expect(listed(invoicePaymentResource)).toEqual(['Export Selection']);
    // An export placed before an action the resource does not have would fall to the end unnoticed.
    for (const resource of resources) {
      const before = resource.export?.before;
      if (before) expect(actionsOf(resource).find((a) => a.name === before)?.scope, `${resource.key} before ${before}`).toBe('list');
    }
    expect(actionsOf(countryResource)).toEqual([]);
    expect(actionsOf(contractFileResource).map((a) => [a.name, a.result])).toEqual([
      ['upload', 'record'],
      ['download', 'file'],
    ]);
  });

  it('derives every route and its level into the one permission table', () => {
    expect(apiPermissions['POST /contracts/:id/mark_sent']).toBe('user');
    expect(apiPermissions['POST /contracts/batch/mark_sent']).toBe('user');
    expect(apiPermissions['POST /contracts/:id/update_status']).toBe('user');
    expect(apiPermissions['PUT /contracts/:id/update_status']).toBe('user');
    expect(apiPermissions['POST /contracts/:id/send_email_paymentinfo']).toBe('user');
    expect(apiPermissions['POST /contracts/download_payments_due']).toBe('reader');
    expect(apiPermissions['POST /invoice_payments/:id/create_pdf']).toBe('developer');
    expect(apiPermissions['POST /invoice_payments/batch/send_email']).toBe('user');
    expect(apiPermissions['POST /contracts/batch/update_status']).toBe('user');
    expect(apiPermissions['POST /contracts/bulk_edit']).toBe('administrator');
    expect(apiPermissions['POST /contracts/batch/bulk_edit']).toBe('administrator');
    expect(apiPermissions['POST /contracts/download_report']).toBe('reader');
    expect(apiPermissions['POST /students/download_report']).toBe('reader');
    expect(apiPermissions['POST /contract_files/:id/upload']).toBe('user');
    expect(apiPermissions['POST /contract_files/:id/download']).toBe('reader');
    expect(apiPermissions['POST /contract_files/batch/download']).toBeUndefined();
    // The contract's mails (issue 12): the spec's `POST /contracts/{id}/send_bankinfo_request` is the derived path.
    expect(apiPermissions['POST /contracts/:id/send_bankinfo_request']).toBe('user');
    expect(apiPermissions['POST /contracts/batch/send_bankinfo_request']).toBe('user');
    expect(apiPermissions['POST /contracts/batch/send_pf_status']).toBe('user');
    expect(apiPermissions['POST /contracts/:id/request_refund_info']).toBe('user');
    expect(apiPermissions['POST /contracts/batch/send_email_paymentinfo']).toBeUndefined();
  });

  it("refuses a contract's mails with a reason a person understands", () => {
    const action = findAction(contractResource, 'send_bankinfo_request')!;
    expect(whyNotOffered(action, { active: true, student_email: 'a@example.org' })).toBeNull();
    expect(whyNotOffered(action, { active: false, student_email: 'a@example.org' })).toBe('The contract is not active');
    expect(whyNotOffered(action, { active: true, student_email: ' ' })).toBe('The student has no e-mail address');
  });

  it('offers a status change only towards the statuses the table allows, saying why not', () => {
    const action = findAction(contractResource, 'update_status')!;
    expect(runsAsBatch(action)).toBe(true);
    expect(whyNotOffered(action, { contract_status_id: 3 }, { contract_status_id: 5 })).toBeNull();
    expect(whyNotOffered(action, { contract_status_id: 5 }, { contract_status_id: 4 })).toBe('A contract with status "Graduated" cannot change to "On a break"');
    expect(whyNotOffered(action, { contract_status_id: 5 })).toBeNull();
    expect(action.variants?.map((v) => v.label)).toEqual(['Accept Offer', 'Reject Offer', 'Enrole', 'Take a break', 'Graduate', 'Drop-out']);
  });

  it('offers Mark contract sent once', () => {
    const action = findAction(contractResource, 'mark_sent')!;
    expect(whyNotOffered(action, { contract_sent_date: null })).toBeNull();
    expect(whyNotOffered(action, { contract_sent_date: '2024-09-01' })).toBe('The contract was already marked sent on 01-09-2024');
  });

  it('takes a batch as ids plus the action input, strictly, and refuses an empty Bulk Edit', () => {
    const bulk = findAction(contractResource, 'bulk_edit')!;
    const schema = batchRequestSchema(bulk.input);
    expect(schema.safeParse({ ids: [1, 2], changes: { year1_finished: true } }).success).toBe(true);
    const empty = schema.safeParse({ ids: [1], changes: {} });
    expect(empty.error?.issues[0]).toMatchObject({ path: ['changes'], message: 'Change at least one field' });
    expect(schema.safeParse({ ids: [1], changes: { comments: 'not bulk-editable' } }).success).toBe(false);
    expect(schema.safeParse({ ids: [1], changes: { year1_finished: true }, extra: 1 }).success).toBe(false);
    expect(schema.safeParse({ ids: [], changes: { year1_finished: true } }).error?.issues[0]?.message).toBe('Select at least one row');
  });
});

describe('rules of the record', () => {
  it('keep a DreamApply contract’s application ID read-only, with the reason', () => {
    expect(readOnlyFieldsOf(contractResource, { da_application_id: null })).toEqual({});
    expect(Object.keys(readOnlyFieldsOf(contractResource, { da_application_id: 'DA-1' }))).toEqual(['application_id', 'da_application_id']);
  });

  it('refuse deleting a contract with documents, and any user, saying why', () => {
    expect(whyNotDeletable(contractResource, { files: 0 })).toBeNull();
    expect(whyNotDeletable(contractResource, { files: 2 })).toBe('This contract has 2 document(s): delete them first');
  });

  it('give a resource without views one view made from itself', () => {
    expect(viewsOf(countryResource)).toEqual([{ key: 'country', title: 'Countries', titleSingular: 'Country', routes: { overview: '/countries', detail: '/country' } }]);
  });
});
