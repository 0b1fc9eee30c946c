import { Router, type Request, type RequestHandler } from 'express';
import archiver from 'archiver';
import { z } from 'zod';
import { APP_VERSION, CHECK_REPORT_FILENAME, FILE_MESSAGE_HEADER, roleHasLevel, TEMPLATES_FAILED_HEADER, MAX_TEMPLATE_BYTES, TEMPLATE_FILE_KIND, TemplateNameSchema, type Config } from '@app/contracts';
import type { AppContext } from '../context.js';
import { actorOf } from '../crud/crud-router.js';
import { parseInput } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { sendFile } from '../files/download.js';
import { acceptUpload, uploadOf } from '../files/upload.js';
import { queryRoute, route } from '../routes.js';
import { emailConfigForDisplay } from '../mail/settings.js';
import { checkTemplates, renderAllShapes } from '../templates/check.js';
import { TemplateError } from '../templates/engine.js';
import { currentTemplate, definitionOf, refusal, refuseOtherTemplatesFile, resetTemplate, saveTemplate, templateList } from '../templates/store.js';

/**
 * The Configuration routes (spec §7 Config, issue 12): the server version, the template list, download, upload,
 * check and reset of templates. The permission table says who may call each (GET /config and every change:
 * Administrator and Developer; get_template: every logged-in user). The Email settings' own routes
 * (`/config/email`, Developer only) are in lib/mail/email-config.router.ts.
 */
export function configRouter(ctx: AppContext): Router {
  const router = Router();

  /**
   * The body of `GET /config`: the Email settings never carry the password, only whether one is stored, and only
   * a Developer gets them (the Email tab and `/config/email` are a Developer's; an Administrator read them here).
   */
  const configAnswer = async (req: Request): Promise<Config> => ({
    version: APP_VERSION,
    email_config: roleHasLevel(actorOf(req).user.userrole_name, 'developer') ? await emailConfigForDisplay(ctx.db, ctx.env) : null,
    templates: await templateList(ctx.db, ctx.env),
  });

  route(router, 'get', '/config/version', (_req, res) => {
    res.json({ version: APP_VERSION });
  });

  route(router, 'get', '/config', async (req, res) => {
    res.json(await configAnswer(req));
  });

  route(router, 'post', '/config/get_template', async (req, res) => {
    const { internalname } = parseInput(TemplateNameSchema, req.body ?? {}, 'template');
    const definition = definitionOf(internalname);
    const { bytes, customised } = await currentTemplate(ctx.db, definition);
    await recordEvent(ctx.db, {
      type: 'export',
      userId: actorOf(req).user.id,
      resource: 'template',
      recordId: definition.id,
      message: `Template ${internalname} downloaded (${customised ? 'uploaded' : 'built-in default'})`,
    });
    sendFile(res, { filename: definition.filename, mimeType: 'text/plain; charset=utf-8', content: bytes });
  });

  // The template is named in the query, checked before a byte of the body is read (an unknown one is a 404).
  const templateOfQuery: RequestHandler = (req, _res, next) => {
    const { internalname } = parseInput(TemplateNameSchema, req.query, 'query');
    definitionOf(internalname);
    next();
  };
  queryRoute(router, 'post', '/config/import', templateOfQuery, acceptUpload({ maxBytes: MAX_TEMPLATE_BYTES, types: [TEMPLATE_FILE_KIND] }), async (req, res) => {
    const { internalname } = parseInput(TemplateNameSchema, req.query, 'query');
    const definition = definitionOf(internalname);
    const { file } = uploadOf(req);
    refuseOtherTemplatesFile(file.filename, definition);
    const text = file.buffer.toString('utf8');
    // Accepted only if it parses and renders with the sample and every other shape real data takes (one line
    // per list, nothing credited, paid in full …), and, for a document, lays out as a PDF each time.
    try {
      await renderAllShapes(ctx.env, definition, text);
    } catch (err) {
      if (err instanceof TemplateError) throw refusal(err);
      throw err;
    }
    const userId = actorOf(req).user.id;
    await ctx.db.transaction((tx) => saveTemplate(tx, definition, { text, filename: file.filename, size: file.size }, userId));
    res.json((await templateList(ctx.db, ctx.env)).find((t) => t.internalname === internalname));
  });

  route(router, 'post', '/config/reset_template', async (req, res) => {
    const { internalname } = parseInput(TemplateNameSchema, req.body ?? {}, 'template');
    const definition = definitionOf(internalname);
    const userId = actorOf(req).user.id;
    await ctx.db.transaction((tx) => resetTemplate(tx, definition, userId));
    res.json((await templateList(ctx.db, ctx.env)).find((t) => t.internalname === internalname));
  });

  route(router, 'post', '/config/check_templates', async (req, res) => {
    parseInput(z.object({}).strict(), req.body ?? {}, 'check');
    const result = await checkTemplates(ctx.db, ctx.env, CHECK_REPORT_FILENAME);
    await recordEvent(ctx.db, {
      type: 'export',
      userId: actorOf(req).user.id,
      resource: 'template',
      message: `Templates checked: ${result.ok} ok, ${result.failures.length} with errors`,
    });
    const archive = archiver('zip', { zlib: { level: 6 } });
    const chunks: Buffer[] = [];
    archive.on('data', (chunk: Buffer) => chunks.push(chunk));
    const finished = new Promise<void>((resolve, reject) => {
      archive.on('end', () => resolve());
      archive.on('error', reject);
    });
    for (const entry of result.entries) archive.append(entry.content, { name: entry.name });
    await archive.finalize();
    await finished;
    const zip = Buffer.concat(chunks);
    // What the check found, said on the screen beside the zip (a green "downloaded" hid two broken templates): the
    // templates that do not render, by name, and in words.
    const { ok, failures } = result;
    const said =
      failures.length === 0
        ? `All ${ok} templates render with their sample data`
        : `${failures.length} of ${ok + failures.length} templates do not render: ${failures.map((f) => `${f.displayname} (${f.reason})`).join('; ')}`;
    res.setHeader(FILE_MESSAGE_HEADER, encodeURIComponent(said));
    res.setHeader(TEMPLATES_FAILED_HEADER, failures.map((f) => f.internalname).join(','));
    sendFile(res, { filename: 'templates-check.zip', mimeType: 'application/zip', content: zip });
  });

  return router;
}
