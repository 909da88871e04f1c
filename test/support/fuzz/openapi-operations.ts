/**
 * The operations of the OpenAPI document the API serves, as the fuzzer needs them: every path and
 * method, its parameters and its JSON body schema, with every `$ref` followed.
 */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: Record<string, Record<string, unknown>>;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface Operation {
  readonly method: string;
  /** As the document spells it, e.g. `/api/v1/portal/items/{id}`. */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  /** The `application/json` body schema; `null` when the operation takes no body. */
  readonly body: JsonSchema | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Follows `#/components/...` references until the value is not one. */
export function resolveRef<T>(document: OpenApiDocument, value: T): T {
  let current: unknown = value;
  for (let hops = 0; hops < 20; hops += 1) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') return current as T;
    const [, , section = '', name = ''] = ref.split('/');
    current = document.components[section]?.[name];
  }
  throw new Error('a $ref chain longer than 20');
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        | { parameters?: unknown[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
        | undefined;
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((parameter) => {
        const resolved = resolveRef(document, parameter) as Omit<Parameter, 'required'> & {
          required?: boolean;
        };
        return { ...resolved, required: resolved.required === true };
      });
      const body = resolveRef(document, operation.requestBody)?.content?.['application/json']?.schema ?? null;
      operations.push({ method: method.toUpperCase(), path, parameters, body });
    }
  }
  return operations;
}
