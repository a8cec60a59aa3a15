export interface ErrorTables {
  REFUSALS: Readonly<Record<string, { readonly when: string; readonly next: string }>>
  FAILURES: Readonly<Record<string, { readonly when: string; readonly next: string }>>
  INTERNAL_ERRORS: Readonly<Record<string, { readonly when: string; readonly next: string }>>
}
export function renderRefusalsDoc(tables: ErrorTables): string
