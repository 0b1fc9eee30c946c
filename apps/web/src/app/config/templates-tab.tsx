import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Code, Group, Input, Loader, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MAX_TEMPLATE_BYTES, TEMPLATE_FILE_KIND, TEMPLATES_FAILED_HEADER, type TemplateInfo } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { queryKeys } from '../../lib/query-keys';
import { saveFile } from '../../lib/save-file';
import { useReturnFocus } from '../../lib/focus';

const ACCEPT = TEMPLATE_FILE_KIND.extensions.map((e) => `.${e}`).join(',');
const MAX_KB = Math.round(MAX_TEMPLATE_BYTES / 1024);

/** A refused upload's reason: the engine's message with its line, as the server names it on the file field. */
function uploadError(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !(error.isValidation || error.isTooLarge || error.isNotFound)) return undefined;
  return error.errors.file?.[0] ?? error.message;
}

function UploadDialog({ template, onClose }: { template: TemplateInfo; onClose: () => void }) {
  useReturnFocus();
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const inputId = useId();
  const form = useForm<{ file: File | null }>({ mode: 'controlled', initialValues: { file: null } });
  const { file } = form.values;
  const tooLarge = file !== null && file.size > MAX_TEMPLATE_BYTES;

  const mutation = useMutation({
    mutationFn: (chosen: File) => api.upload<TemplateInfo>('/config/import/', chosen, 'file', { query: { internalname: template.internalname } }),
    onSuccess: async () => {
      alerts.showSuccess(`Uploaded ${template.displayname}`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.config });
      onClose();
    },
    onError: (error) => {
      const reason = uploadError(error);
      if (reason) form.setFieldError('file', reason);
      else alerts.showFailure(error, 'uploading template');
    },
  });

  const submit = form.onSubmit(({ file: chosen }) => {
    if (chosen && !tooLarge) mutation.mutate(chosen);
  });
  const fileError = tooLarge ? `The file is larger than ${MAX_KB} KB` : (form.errors.file as string | undefined);

  return (
    <Modal opened onClose={onClose} title={`Upload template: ${template.displayname}`} centered size="lg">
      <form onSubmit={submit} noValidate aria-label="Upload template">
        <Stack gap="sm">
          <Text size="sm">
            The template replaces the one in use only if it renders with its sample data; otherwise the server says
            what is wrong and on which line, and nothing changes.
          </Text>
          <Input.Wrapper label="Template file" id={inputId} error={fileError} size="sm">
            <input
              id={inputId}
              type="file"
              accept={ACCEPT}
              aria-invalid={fileError ? true : undefined}
              style={{ display: 'block', marginTop: 6, fontSize: 'var(--mantine-font-size-sm)' }}
              onChange={(e) => {
                form.clearFieldError('file');
                form.setFieldValue('file', e.currentTarget.files?.[0] ?? null);
              }}
            />
          </Input.Wrapper>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={!file || tooLarge}>
              Upload
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ResetDialog({ template, onClose }: { template: TemplateInfo; onClose: () => void }) {
  useReturnFocus();
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const mutation = useMutation({
    mutationFn: () => api.post<TemplateInfo>('/config/reset_template', { internalname: template.internalname }),
    onSuccess: async () => {
      alerts.showSuccess(`${template.displayname} is the built-in default again`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.config });
      onClose();
    },
    onError: (error) => alerts.showFailure(error, 'resetting template'),
  });
  return (
    <Modal opened onClose={onClose} title="Reset to default" centered>
      <Stack gap="sm">
        <Text size="sm">
          Replace the uploaded template “{template.displayname}” by the built-in default? The uploaded one is deleted
          (download it first to keep a copy).
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button color="red" loading={mutation.isPending} onClick={() => mutation.mutate()}>
            Reset
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The variables a template can use, with an example of each, and how to write them (decision 055). */
function VariablesDialog({ template, onClose }: { template: TemplateInfo; onClose: () => void }) {
  useReturnFocus();
  return (
    <Modal opened onClose={onClose} title={`Variables: ${template.displayname}`} centered size="xl">
      <Stack gap="sm">
        <Text size="sm">
          Write a variable as <Code>{'{{ student.name }}'}</Code>; an amount with <Code>{'| money'}</Code> (€ 1.234,56), a
          date with <Code>{'| day'}</Code> (DD-MM-YYYY). An entry of a list (<Code>[]</Code>) is used inside a loop:{' '}
          <Code>{'{% for line in invoice.lines %}{{ line.amount | money }}{% endfor %}'}</Code>.
        </Text>
        <Table.ScrollContainer minWidth={480} mah="60vh">
          <Table striped withTableBorder verticalSpacing={4} aria-label={`Variables of ${template.displayname}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Variable</Table.Th>
                <Table.Th>Example</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {template.variables.map((v) => (
                <Table.Tr key={v.name}>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {v.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{v.example}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Modal>
  );
}

/**
 * Tab Templates (spec §2 Configuration screen, issue 12): every template with its state, download (the current
 * text, byte for byte), upload (the file chosen first), reset to the built-in default (with a confirm), and a
 * check of all templates answered as a zip.
 */
export function TemplatesTab({ templates, loading }: { templates: TemplateInfo[] | undefined; loading: boolean }) {
  const alerts = useAlerts();
  const [uploading, setUploading] = useState<TemplateInfo | null>(null);
  const [resetting, setResetting] = useState<TemplateInfo | null>(null);
  const [showing, setShowing] = useState<TemplateInfo | null>(null);

  const download = useMutation({
    mutationFn: async (template: TemplateInfo) => saveFile(await api.download('/config/get_template', { internalname: template.internalname }), template.filename),
    onError: (error) => alerts.showFailure(error, 'downloading template'),
  });
  // The templates the last check found not rendering, marked in their rows until the next check.
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const check = useMutation({
    mutationFn: async () => {
      const file = await api.download('/config/check_templates', {});
      saveFile(file, 'templates-check.zip');
      return file;
    },
    onSuccess: (file) => {
      const failed = (file.headers?.get(TEMPLATES_FAILED_HEADER) ?? '').split(',').filter((name) => name !== '');
      setBroken(new Set(failed));
      const said = file.message ?? 'Template check downloaded';
      if (failed.length > 0) alerts.showError(`${said}. The zip's report.txt has the details.`);
      else alerts.showSuccess(`${said}; the zip holds each one rendered.`);
    },
    onError: (error) => alerts.showFailure(error, 'checking templates'),
  });

  if (loading) return <Loader aria-label="Loading" size="sm" />;
  if (!templates) return null;

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Every document and e-mail text. Download one to edit it (Variables lists what it can use), upload it again;
          Check renders all of them from their sample data.
        </Text>
        <Button variant="light" loading={check.isPending} onClick={() => check.mutate()}>
          Check templates
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={720}>
        <Table striped withTableBorder verticalSpacing="xs" aria-label="Templates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Template</Table.Th>
              <Table.Th>Internal name</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>In use</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.map((t) => (
              <Table.Tr key={t.internalname}>
                <Table.Td>{t.displayname}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {t.internalname}
                  </Text>
                </Table.Td>
                <Table.Td>{t.kind === 'pdf' ? 'PDF' : 'E-mail'}</Table.Td>
                <Table.Td>
                  {broken.has(t.internalname) && (
                    <Badge color="red" variant="light" mr={6}>
                      Does not render
                    </Badge>
                  )}
                  {t.customised ? (
                    <Group gap={6}>
                      <Badge color="blue" variant="light">
                        Uploaded
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(t.uploaded_timestamp)}
                        {t.uploaded_user ? `, ${t.uploaded_user}` : ''}
                      </Text>
                    </Group>
                  ) : (
                    <Badge color="gray" variant="light">
                      Built-in default
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" aria-label={`Variables of ${t.displayname}`} onClick={() => setShowing(t)}>
                      Variables
                    </Button>
                    <Button size="xs" variant="default" aria-label={`Download ${t.displayname}`} onClick={() => download.mutate(t)}>
                      Download
                    </Button>
                    <Button size="xs" variant="default" aria-label={`Upload ${t.displayname}`} onClick={() => setUploading(t)}>
                      Upload
                    </Button>
                    <Button size="xs" variant="default" color="red" aria-label={`Reset ${t.displayname} to default`} disabled={!t.customised} onClick={() => setResetting(t)}>
                      Reset
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {uploading && <UploadDialog template={uploading} onClose={() => setUploading(null)} />}
      {resetting && <ResetDialog template={resetting} onClose={() => setResetting(null)} />}
      {showing && <VariablesDialog template={showing} onClose={() => setShowing(null)} />}
    </Stack>
  );
}
