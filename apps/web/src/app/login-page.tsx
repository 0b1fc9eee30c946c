import { useNavigate } from 'react-router';
import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useAuth } from '../lib/auth';

/**
 * Login (spec §2 "Login screen"): Login is disabled until both fields are filled, Enter submits, success goes
 * to /, and a failure clears both fields without any message.
 */
export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const form = useForm({ mode: 'controlled', initialValues: { username: '', password: '' } });
  const { username, password } = form.values;
  // `submitting` lasts while the login call runs (the submit handler's promise).
  const canSubmit = username !== '' && password !== '' && !form.submitting;

  const onSubmit = form.onSubmit(async (credentials) => {
    // Enter in a field submits even while Login is disabled.
    if (!canSubmit) return;
    try {
      await login(credentials.username, credentials.password);
      navigate('/', { replace: true });
    } catch {
      form.reset();
      form.getInputNode('username')?.focus();
    }
  });

  return (
    // The login screen has no app shell: it is its own main landmark.
    <Center component="main" mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={360}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <div>
              <Title order={1} size="h3">
                Scholarship Office
              </Title>
              <Text size="sm" c="dimmed">
                Please log in.
              </Text>
            </div>
            <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} autoFocus />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              {...form.getInputProps('password')}
              visibilityToggleButtonProps={{ 'aria-label': 'Show typed characters' }}
            />
            <Button type="submit" disabled={!canSubmit} loading={form.submitting}>
              Login
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
