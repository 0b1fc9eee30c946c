import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Group, Input, Modal, Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  apiPermissions,
  ContractFileCreateSchema,
  contractFileResource,
  formatDateTime,
  MAX_UPLOAD_BYTES,
  type ContractFile,
  type Paged,
} from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { queryKeys, refreshAfterWrite } from '../../lib/query-keys';
import { saveFile } from '../../lib/save-file';
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

/**
 * Upload (spec §2 "Contract screen"): the record is created first (type, description, file name), then the
 * file is sent to it. Upload stays disabled until a file is chosen. If sending the file fails, the empty
 * record is removed again, so no document without a file is left behind.
 */
function UploadForm({ contractId, onUploaded }: { contractId: number; onUploaded: () => Promise<unknown> }) {
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState<unknown>(defaultType);
  const [description, setDescription] = useState<unknown>('');
  const [failure, setFailure] = useState<string | null>(null);
  // A new key empties the file input after an upload (a file input cannot be set from script).
  const [inputKey, setInputKey] = useState(0);
  const inputId = useId();
  const alerts = useAlerts();
  const tooLarge = file !== null && file.size > MAX_UPLOAD_BYTES;

  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

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
      setFile(null);
      setDescription('');
      setType(defaultType());
      setInputKey((k) => k + 1);
      setFailure(null);
      alerts.showSuccess(`Uploaded ${row.filename}`);
      await onUploaded();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.isTooLarge) {
        setFailure(error.message);
        alerts.showError(error.message);
      } else {
        setFailure('Upload failed');
        alerts.showFailure(error, 'uploading document');
      }
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || tooLarge) return;
    const checked = ContractFileCreateSchema.safeParse({
      contract_id: contractId,
      ft_id: type,
      description: typeof description === 'string' && description.trim() !== '' ? description : null,
      // The server names the document after the uploaded file; the record only needs a valid name first.
      filename: file.name.slice(0, 200),
    });
    if (!checked.success) {
      setFieldErrors(Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setFieldErrors({});
    mutation.mutate({ chosen: file, body: checked.data });
  };

  const fileError = tooLarge ? `The file is larger than ${MAX_MB} MB` : (failure ?? undefined);

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
                onChange={(e) => {
                  setFile(e.currentTarget.files?.[0] ?? null);
                  setFailure(null);
                }}
              />
            </Input.Wrapper>
            <Field def={typeField} value={type} onChange={setType} error={fieldErrors.ft_id} required readOnly={false} />
            <Field
              def={descriptionField}
              value={description}
              onChange={setDescription}
              error={fieldErrors.description}
              required={false}
              readOnly={false}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" disabled={!file || tooLarge || type === null} loading={mutation.isPending}>
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
