import { z } from 'zod';

/** Where a step takes a variable from: a JSON path into the body, a response header, or a regular expression's first group. */
export const captureSchema = z.union([
  z.object({ json: z.string().min(1) }).strict(),
  z.object({ header: z.string().min(1) }).strict(),
  z
    .object({
      regex: z.string().refine((pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      }, 'a valid regular expression'),
    })
    .strict(),
]);

export type CaptureSpec = z.infer<typeof captureSchema>;
