import { useId, useState } from 'react';
import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Group, Input, Modal, Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import {
  apiPermissions,
  ContractFileCreateSchema,
  contractFileResource,
  MAX_UPLOAD_BYTES,
  type ContractFile,
  type Paged,
} from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { queryKeys, refreshAfterWrite } from '../../lib/query-keys';
import { saveFile } from '../../lib/save-file';
import { useUnsavedChanges } from '../../lib/unsaved-changes';
import { Field } from '../../machinery/fields/field';
import type { FieldDef } from '../../machinery/fields/types';
import { schemaDefault } from '../../machinery/fields/values';

type ContractFileCreate = z.output<typeof ContractFileCreateSchema>;

const path = `/${contractFileResource.apiPath}`;
const MAX_MB = Math.round(MAX_UPLOAD_BYTES / 1024 / 1024);

/** 1234567 → "1.2 MB". */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const typeField: FieldDef = { name: 'ft_id', label: 'Type', kind: 'select', choices: 'file_types' };
const descriptionField: FieldDef = { name: 'description', label: 'Description', kind: 'text' };
/** Contract file type default 1 (spec §9), as the create schema says. */
const defaultType = () => schemaDefault(ContractFileCreateSchema.shape.ft_id) as number;

interface UploadValues {
  file: File | null;
  ft_id: unknown;
  description: unknown;
}

/** The document record the upload creates first: the server names it after the file once the file is sent. */
function uploadRecord(contractId: number, { file, ft_id, description }: UploadValues) {
  return {
    contract_id: contractId,
    ft_id,
    description: typeof description === 'string' && description.trim() !== '' ? description : null,
    filename: (file?.name ?? '').slice(0, 200),
  };
}

/** The contract file schema's messages, on the type and description fields. */
function uploadErrors(contractId: number, values: UploadValues): FormErrors {
  const errors: Record<string, string> = {};
  for (const issue of ContractFileCreateSchema.safeParse(uploadRecord(contractId, values)).error?.issues ?? []) {
    errors[String(issue.path[0])] ??= issue.message;
  }
  return errors;
}

/**
 * Upload (spec §2 "Contract screen"): the record is created first (type, description, file name), then the
 * file is sent to it. Upload stays disabled until a file is chosen. If sending the file fails, the empty
 * record is removed again, so no document without a file is left behind.
 */
function UploadForm({ contractId, onUploaded }: { contractId: number; onUploaded: () => Promise<unknown> }) {
  const form = useForm<UploadValues>({
    mode: 'controlled',
    initialValues: { file: null, ft_id: defaultType(), description: '' },
    validate: (values) => uploadErrors(contractId, values),
  });
  // A new key empties the file input after an upload (a file input cannot be set from script).
  const [inputKey, setInputKey] = useState(0);
  const inputId = useId();
  const alerts = useAlerts();
  const { file } = form.values;
  const tooLarge = file !== null && file.size > MAX_UPLOAD_BYTES;
  // A chosen file or a typed description is not uploaded yet: Logout asks, and an ended session keeps it (decision 061).
  useUnsavedChanges(file !== null || form.values.description !== '');

  const mutation = useMutation({
    mutationFn: async ({ chosen, body }: { chosen: File; body: ContractFileCreate }) => {
      const { id } = await api.post<{ id: number }>(path, body);
      try {
        return await api.upload<ContractFile>(`${path}/${id}/upload`, chosen);
      } catch (error) {
        await api.delete(`${path}/${id}`).catch(() => undefined);
        throw error;
      }
    },
    onSuccess: async (row) => {
      form.reset();
      setInputKey((k) => k + 1);
      alerts.showSuccess(`Uploaded ${row.filename}`);
      await onUploaded();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.isTooLarge) {
        form.setFieldError('file', error.message);
        alerts.showError(error.message);
      } else if (error instanceof ApiError && error.isValidation) {
        // The server says why it refused the file (a type not allowed, a name that does not fit its content).
        const reason = error.errors.file?.[0] ?? error.message;
        form.setFieldError('file', reason);
        alerts.showError(reason);
      } else {
        form.setFieldError('file', 'Upload failed');
        alerts.showFailure(error, 'uploading document');
      }
    },
  });

  const submit = form.onSubmit((values) => {
    if (!values.file || tooLarge) return;
    mutation.mutate({ chosen: values.file, body: ContractFileCreateSchema.parse(uploadRecord(contractId, values)) });
  });

  const fileError = tooLarge ? `The file is larger than ${MAX_MB} MB` : (form.errors.file as string | undefined);

  return (
    <Paper withBorder p="md" radius="sm">
      <form onSubmit={submit} noValidate aria-label="Upload document">
        <Stack gap="sm">
          <Title order={2} size="h5">
            Upload document
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
            <Input.Wrapper label="File" id={inputId} error={fileError} size="sm">
              <input
                key={inputKey}
                id={inputId}
                type="file"
                aria-invalid={fileError ? true : undefined}
                style={{ display: 'block', marginTop: 6, fontSize: 'var(--mantine-font-size-sm)' }}
                onChange={(e) => form.setFieldValue('file', e.currentTarget.files?.[0] ?? null)}
              />
            </Input.Wrapper>
            <Field
              def={typeField}
              value={form.values.ft_id}
              onChange={(v) => form.setFieldValue('ft_id', v)}
              error={form.errors.ft_id as string | undefined}
              required
              readOnly={false}
            />
            <Field
              def={descriptionField}
              value={form.values.description}
              onChange={(v) => form.setFieldValue('description', v)}
              error={form.errors.description as string | undefined}
              required={false}
              readOnly={false}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" disabled={!file || tooLarge || form.values.ft_id === null} loading={mutation.isPending}>
              Upload
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The Documents tab of the contract screen: the list, download for everyone, upload and delete for User level. */
export function ContractDocuments({ contractId, onChange }: { contractId: number; onChange: () => Promise<unknown> }) {
  const { mayCall } = useAuth();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<ContractFile | null>(null);
  const canUpload = mayCall(apiPermissions['POST /contract_files/:id/upload']);
  const canDelete = mayCall(apiPermissions['DELETE /contract_files/:id']);

  const params = { contract_id: contractId, sort: 'edit_timestamp|desc', page: 1, per_page: 100 };
  const query = useQuery({
    queryKey: queryKeys.list(contractFileResource.key, params),
    queryFn: ({ signal }) => api.get<Paged<ContractFile>>(path, { query: params, signal }),
  });
  const rows = query.data?.data ?? [];

  const changed = async () => {
    await Promise.all([refreshAfterWrite(queryClient, contractFileResource.key), onChange()]);
  };

  const download = useMutation({
    mutationFn: async (row: ContractFile) => ({ row, file: await api.download(`${path}/${row.id}/download`) }),
    onSuccess: ({ row, file }) => saveFile(file, row.filename),
    onError: (error) => alerts.showFailure(error, 'downloading document'),
  });

  const remove = useMutation({
    mutationFn: (row: ContractFile) => api.delete(`${path}/${row.id}`),
    onSuccess: async () => {
      alerts.showSuccess('Document deleted');
      await changed();
    },
    onError: (error) => alerts.showFailure(error, 'deleting'),
  });

  const confirmDelete = () => {
    if (deleting) remove.mutate(deleting);
    setDeleting(null);
  };

  return (
    <Stack gap="sm">
      {canUpload && <UploadForm contractId={contractId} onUploaded={changed} />}

      {query.error && (
        <Text size="sm" c="red" role="alert">
          Error loading the documents: {query.error.message}
        </Text>
      )}

      <Table.ScrollContainer minWidth={520}>
        <Table striped fz="sm" verticalSpacing={4} aria-label="Documents">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>File Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Size</Table.Th>
              <Table.Th>Last Edit</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !query.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text ta="center" c="dimmed" py="md" size="sm">
                    No Data Available
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.filename}</Table.Td>
                <Table.Td>{row.file_type}</Table.Td>
                <Table.Td>{row.description ?? ''}</Table.Td>
                <Table.Td ta="right">{formatSize(row.size)}</Table.Td>
                <Table.Td>{formatDateTime(row.edit_timestamp)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <Button
                      variant="default"
                      size="compact-sm"
                      title={`Download ${row.filename}`}
                      disabled={!row.uploaded}
                      loading={download.isPending && download.variables?.id === row.id}
                      onClick={() => download.mutate(row)}
                    >
                      Download
                    </Button>
                    {canDelete && (
                      <Button
                        color="red"
                        variant="light"
                        size="compact-sm"
                        title={`Delete ${row.filename}`}
                        loading={remove.isPending && remove.variables?.id === row.id}
                        onClick={() => setDeleting(row)}
                      >
                        Delete
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${contractFileResource.title}`}
        withCloseButton={false}
        centered
        size="sm"
      >
        <Text size="sm">{`Are you sure you want to delete this ${contractFileResource.title}?`}</Text>
        <Group justify="flex-end" mt="md" gap="xs">
          <Button variant="default" onClick={() => setDeleting(null)} data-autofocus>
            No
          </Button>
          <Button color="red" onClick={confirmDelete}>
            Yes
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
