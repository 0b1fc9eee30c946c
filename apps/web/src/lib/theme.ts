import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  fontSizes: { md: '0.9rem' },
  components: {
    Table: { defaultProps: { fz: 'sm' } },
  },
});
