// Lint: typescript-eslint's recommended rules with the promise checks that matter for a tool whose
// writes must be awaited, plus the repository's own rules. Layers are checked by dependency-cruiser
// (.dependency-cruiser.cjs); formatting by Prettier.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/node_modules/**', 'examples/**/.digline/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      // One program over every typed file (ADR 0510): the project service would build a second one
      // for src/ and plugin/, the project tsconfig.json references.
      parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The package never imports Vitest outside its plugin, and only the bin decides the exit.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['vitest', 'vitest/*', '@vitest/*'], message: "src/ never imports Vitest: that is plugin/'s job." }] }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only src/cli/bin.ts ends the process.' },
        { object: 'process', property: 'exitCode', message: 'Only src/cli/bin.ts and the plugin set the exit code.' },
      ],
    },
  },
  {
    files: ['src/cli/bin.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.{js,ts}', 'scripts/**/*.js'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
)
