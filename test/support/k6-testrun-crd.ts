import { z } from 'zod';

// The parts of k6-operator's TestRun CRD (k6.io/v1alpha1, config/crd/bases/k6.io_testruns.yaml)
// that bench's manifest uses, with the CRD's types and required fields; strict, so a misspelt or
// misplaced field fails as the API server's structural schema would reject or prune it.
const envVar = z
  .object({
    name: z.string().min(1),
    value: z.string().optional(),
    // core/v1's EnvVarSource, as the CRD embeds it: a field of the pod, or a key of a Secret
    valueFrom: z
      .object({
        fieldRef: z.object({ fieldPath: z.string(), apiVersion: z.string().optional() }).strict().optional(),
        secretKeyRef: z
          .object({ name: z.string().min(1), key: z.string().min(1), optional: z.boolean().optional() })
          .strict()
          .optional(),
      })
      .strict()
      .refine((source) => (source.fieldRef === undefined) !== (source.secretKeyRef === undefined), 'one source')
      .optional(),
  })
  .strict();
// core/v1 Volume's sources bench uses: a claim (the results), a Secret (a data file's rows)
const volume = z
  .object({
    name: z.string().min(1),
    persistentVolumeClaim: z
      .object({ claimName: z.string().min(1), readOnly: z.boolean().optional() })
      .strict()
      .optional(),
    secret: z
      .object({
        secretName: z.string().min(1),
        items: z.array(z.object({ key: z.string().min(1), path: z.string().min(1) }).strict()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((v) => (v.persistentVolumeClaim === undefined) !== (v.secret === undefined), 'one volume source');
const volumeMount = z
  .object({
    name: z.string().min(1),
    mountPath: z.string().startsWith('/'),
    readOnly: z.boolean().optional(),
    subPath: z.string().optional(),
  })
  .strict();
const dns1123 = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
  .max(63);

export const k6TestRunSchema = z
  .object({
    apiVersion: z.literal('k6.io/v1alpha1'),
    kind: z.literal('TestRun'),
    metadata: z.object({ name: dns1123, namespace: z.string().optional() }).strict(),
    spec: z
      .object({
        parallelism: z
          .number()
          .int()
          .min(1)
          .max(2 ** 31 - 1),
        script: z
          .object({
            configMap: z
              .object({ name: z.string().min(1), file: z.string().optional() })
              .strict()
              .optional(),
            volumeClaim: z
              .object({ name: z.string().min(1), file: z.string().optional(), readOnly: z.boolean().optional() })
              .strict()
              .optional(),
            localFile: z.string().optional(),
          })
          .strict(),
        arguments: z.string().optional(),
        separate: z.boolean().optional(),
        runner: z
          .object({ env: z.array(envVar).optional(), volumes: z.array(volume).optional(), volumeMounts: z.array(volumeMount).optional() })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
