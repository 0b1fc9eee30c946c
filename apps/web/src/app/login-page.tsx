import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useAuth } from '../lib/auth';

/**
 * Login (spec §2 "Login screen"): Login is disabled until both fields are filled, Enter submits, success goes
 * to /, and a failure clears both fields without any message.
 */
export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const usernameInput = useRef<HTMLInputElement>(null);
  const canSubmit = username !== '' && password !== '' && !busy;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    try {
      await login(username, password);
      navigate('/', { replace: true });
    } catch {
      setUsername('');
      setPassword('');
      setBusy(false);
      usernameInput.current?.focus();
    }
  };

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
            <TextInput
              ref={usernameInput}
              label="Username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              autoFocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              visibilityToggleButtonProps={{ 'aria-label': 'Show typed characters' }}
            />
            <Button type="submit" disabled={!canSubmit} loading={busy}>
              Login
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
