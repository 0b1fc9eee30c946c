import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Anchor, Button, Group, Input, Menu, Modal, Stack, Text } from '@mantine/core';
import { apiPermissions, contractImportActions, roleHasLevel, type AnyAction, type ImportStarted, type RoleName } from '@app/contracts';
import { api, apiDownload, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { saveFile } from '../../lib/save-file';
import { BatchDialog } from '../../machinery/batch/batch-dialog';
import { InputDialog } from '../../machinery/actions/input-dialog';
import { actionFieldDefs } from '../../machinery/actions/actions';
import type { Overview } from '../../machinery/overview/use-overview';
import { useReturnFocus } from '../../lib/focus';

/** An upload import: its action, what it accepts (spec §5, §9), its template and its results type. */
interface UploadImport {
  action: AnyAction;
  accept: string;
  acceptText: string;
  template: { path: string; filename: string };
  type: 'contracts' | 'bankinfo';
}

const UPLOADS: readonly UploadImport[] = [
  {
    action: contractImportActions.importContracts,
    accept: '.xlsx',
    acceptText: 'an Excel file (.xlsx)',
    template: { path: '/contracts/import_template', filename: 'Contract_Import_Template.xlsx' },
    type: 'contracts',
  },
  {
    action: contractImportActions.importBankinfo,
    accept: '.xlsx,.zip',
    acceptText: 'an Excel file (.xlsx) or a .zip of Excel files',
    template: { path: '/contracts/import_bankinfo_template', filename: 'Bank_Info_Import_Template.xlsx' },
    type: 'bankinfo',
  },
];

/** A message the person can act on: the server's own for a refused file (400, 413), the spec's otherwise. */
function uploadProblem(error: unknown): string {
  if (error instanceof ApiError && (error.status === 400 || error.status === 413)) return error.message;
  return 'Server error while uploading file';
}

/**
 * The upload dialog of an import (spec §5): the file chooser, the template to fill, and Upload, which stays
 * disabled until a file is chosen. A refused file is shown here, with the reason.
 */
function UploadDialog({ upload, onStarted, onClose }: { upload: UploadImport; onStarted: (started: ImportStarted) => void; onClose: () => void }) {
  useReturnFocus();
  const alerts = useAlerts();
  const [file, setFile] = useState<File | null>(null);
  const inputId = useId();
  const send = useMutation({
    mutationFn: (chosen: File) => api.upload<ImportStarted>(`/contracts/${upload.action.name}`, chosen),
    onSuccess: onStarted,
    onError: (error) => {
      if (!(error instanceof ApiError && (error.status === 400 || error.status === 413))) alerts.showFailure(error, 'uploading file');
    },
  });
  const template = useMutation({
    mutationFn: () => apiDownload(upload.template.path, { method: 'GET' }),
    onSuccess: (downloaded) => saveFile(downloaded, upload.template.filename),
    onError: (error) => alerts.showFailure(error, 'downloading the template'),
  });
  return (
    <Modal opened onClose={onClose} title={`Import ${upload.action.label}`} centered>
      <Stack gap="sm">
        <Text size="sm">
          Choose {upload.acceptText}. First a preview shows what each row would do; nothing changes until you confirm it.
        </Text>
        <Anchor component="button" type="button" size="sm" onClick={() => template.mutate()}>
          Download the template
        </Anchor>
        <Input.Wrapper label="File" id={inputId} size="sm">
          <input
            id={inputId}
            type="file"
            accept={upload.accept}
            style={{ display: 'block', marginTop: 6, fontSize: 'var(--mantine-font-size-sm)' }}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              send.reset();
            }}
          />
        </Input.Wrapper>
        {send.error && (
          <Alert color="red" variant="light" role="alert" title="The file was not imported">
            {uploadProblem(send.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={file === null} loading={send.isPending} onClick={() => file && send.mutate(file)}>
            Upload
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type Open = { kind: 'upload'; upload: UploadImport } | { kind: 'dream' } | { kind: 'run'; runId: number; results?: { filename: string; type: 'contracts' | 'bankinfo' } };

/**
 * The contract overview's Import menu (spec §2, issue 16): Excel contracts, bank info and, once the server has
 * it, DreamApply (its dialog asks academic year and updates in last days with the spec's defaults). Each import previews first in the batch dialog; "Download results" gives every input row with
 * its outcome.
 */
export function ContractImportMenu({ overview }: { overview: Pick<Overview, 'refetch'> }) {
  const { user } = useAuth();
  const alerts = useAlerts();
  const [open, setOpen] = useState<Open | null>(null);
  const role = user?.userrole_name as RoleName | undefined;
  const dream = contractImportActions.importDreamApply;
  const dreamStart = useMutation({
    mutationFn: (input: Record<string, unknown>) => api.post<ImportStarted>(`/contracts/${dream.name}`, input),
    onSuccess: (started) => setOpen({ kind: 'run', runId: started.run_id }),
    // DreamApply's own trouble (a refused key, "try again in 17 seconds", no answer) is said as the server says it.
    onError: (error) =>
      error instanceof ApiError && [409, 429, 503].includes(error.status) ? alerts.showError(error.message) : alerts.showFailure(error, dream.failureText ?? 'importing'),
  });
  if (!roleHasLevel(role, 'user')) return null;
  const results = open?.kind === 'run' ? open.results : undefined;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" size="sm">
            Import
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {UPLOADS.map((u) => (
            <Menu.Item key={u.action.name} onClick={() => setOpen({ kind: 'upload', upload: u })}>
              {u.action.label}
            </Menu.Item>
          ))}
          {/* Offered once the server serves the DreamApply import (its route is in the permission table). */}
          {apiPermissions[`POST /contracts/${dream.name}`] !== undefined && <Menu.Item onClick={() => setOpen({ kind: 'dream' })}>{dream.label}</Menu.Item>}
        </Menu.Dropdown>
      </Menu>
      {open?.kind === 'upload' && (
        <UploadDialog
          upload={open.upload}
          onClose={() => setOpen(null)}
          onStarted={(started) => setOpen({ kind: 'run', runId: started.run_id, results: { filename: started.filename, type: open.upload.type } })}
        />
      )}
      {open?.kind === 'dream' && (
        <InputDialog
          title={`Import from ${dream.label}`}
          text={dream.confirm}
          fields={actionFieldDefs(dream)}
          schema={dream.input}
          initialValues={{ academic_year: 2021, updates_in_last_days: 0 }}
          submitLabel="Preview"
          pending={dreamStart.isPending}
          onSubmit={(input) => dreamStart.mutate(input)}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'run' && (
        <BatchDialog
          runId={open.runId}
          onClose={() => setOpen(null)}
          onFinished={() => overview.refetch()}
          {...(results ? { downloadResult: () => apiDownload('/contracts/get_import_results', { body: results }), resultName: `Import_results_${results.filename}` } : {})}
        />
      )}
    </>
  );
}
