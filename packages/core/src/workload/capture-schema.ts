import { z } from 'zod';

// `secret: true`: the value is a credential (a session token): hidden in every message a run writes, in its escaped
// forms and any piece of six characters or more a sample's cut leaves. Other captured values are hidden whole.
const secret = { secret: z.boolean().optional() };

/** Where a step takes a variable from: a JSON path into the body, a response header, or a regular expression's first group. */
export const captureSchema = z.union([
  z.object({ json: z.string().min(1), ...secret }).strict(),
  z.object({ header: z.string().min(1), ...secret }).strict(),
  z
    .object({
      ...secret,
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
