import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: ['.next/**', '.next-*/**', 'node_modules/**', 'lib/generated/**', '.data/**', 'test-results/**', 'playwright-report/**', 'bench-results/**'] },
];

export default config;
