import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useUnsavedChanges } from '../../lib/unsaved-changes';

/**
 * Nothing typed is lost in silence: while `dirty`, leaving for another screen (a menu, a link, Back, the
 * Overview button) waits for the user's answer, and closing or reloading the tab asks the browser's question.
 * Changes of the query only (Edit / Undo Edit) pass: Undo Edit is the user's own "discard".
 * `release()` lets the screen's own navigation after a save or delete through.
 */
export function useLeaveGuard(dirty: boolean) {
  const dirtyRef = useRef(dirty);
  const released = useRef(false);
  useLayoutEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: { pathname: string }; nextLocation: { pathname: string } }) =>
        dirtyRef.current && !released.current && currentLocation.pathname !== nextLocation.pathname,
      [],
    ),
  );

  useUnsavedChanges(dirty);
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show their question only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => {
      window.removeEventListener('beforeunload', ask);
    };
  }, [dirty]);

  const release = useCallback(() => {
    released.current = true;
  }, []);

  return { blocker, release };
}

interface UnsavedChangesDialogProps {
  opened: boolean;
  message: string;
  leaveLabel: string;
  onStay: () => void;
  onLeave: () => void;
}

/** "Unsaved changes": stay (the default button) or go on without saving. */
export function UnsavedChangesDialog({ opened, message, leaveLabel, onStay, onLeave }: UnsavedChangesDialogProps) {
  return (
    <Modal opened={opened} onClose={onStay} title="Unsaved changes" withCloseButton={false} centered size="sm">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button variant="default" onClick={onStay} data-autofocus>
          Stay
        </Button>
        <Button color="red" onClick={onLeave}>
          {leaveLabel}
        </Button>
      </Group>
    </Modal>
  );
}

/** The question of a blocked navigation away from a screen with changes. */
export function LeaveDialog({ blocker, title }: { blocker: Blocker; title: string }) {
  return (
    <UnsavedChangesDialog
      opened={blocker.state === 'blocked'}
      message={`This ${title} has changes that are not saved. Leave without saving them?`}
      leaveLabel="Leave without saving"
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}
