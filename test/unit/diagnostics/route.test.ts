// The diagnostics log keeps where a request went, never what it was about: a path's segments are
// kept only when they are words of the two interfaces; any other, a lowercase name included, is
// `{id}`. The renderer's reports are held to the same rule by the bridge's schema.

import { describe, expect, it } from 'vitest';
import { dispatch, InvalidBridgeCall } from '../../../electron/main/bridge/handlers.ts';
import { isRoute, routeOf } from '@shared/api/route.ts';
import { diagnosticsEntrySchema } from '@shared/bridge-schema.ts';
import { failedConfigPull, reportHandlers } from './entries.ts';

describe('the route of a request', () => {
  it('keeps no name-like segment: a file address ending /martinez is not logged as martinez', () => {
    expect(routeOf('/files/7/martinez')).toBe('/files/{id}/{id}');
    expect(routeOf('https://platform.example/api/v0/files/7/martinez?download=1')).toBe(
      '/api/v0/files/{id}/{id}',
    );
    for (const name of ['martinez', 'jane', 'smith-jones', 'o_brien', 'statement.pdf', 'Martinez'])
      expect(routeOf(`/accounts/12/file/document/3/0/${name}`), name).toBe(
        '/accounts/{id}/file/document/{id}/{id}/{id}',
      );
    expect(routeOf('/engagements/4/signatures/client_signature/martinez.png')).toBe(
      '/engagements/{id}/signatures/{id}/{id}',
    );
  });

  it('keeps the words of both interfaces, as their documents name the endpoints', () => {
    for (const [path, route] of [
      ['/accounts/12/client/details', '/accounts/{id}/client/details'],
      ['/accounts/12/coclient/security/reset', '/accounts/{id}/coclient/security/reset'],
      ['/accounts/12/expenses-variable/3', '/accounts/{id}/expenses-variable/{id}'],
      ['/accounts/12/client/employment/5/document', '/accounts/{id}/client/employment/{id}/document'],
      [
        '/accounts/12/client/details/drivers_license/document',
        '/accounts/{id}/client/details/drivers_license/document',
      ],
      ['/engagements/4/reopen', '/engagements/{id}/reopen'],
      ['/accounts/12/forms/k1/resend', '/accounts/{id}/forms/{id}/resend'],
      ['/user/reports/r1/CLIENT/2026-01-01/2026-12-31/CSV', '/user/reports/{id}/{id}/{id}/{id}/{id}'],
      ['/config/template/t1', '/config/template/{id}'],
      ['/user/switch', '/user/switch'],
    ] as [string, string][])
      expect(routeOf(path), path).toBe(route);
  });

  it('the renderer cannot report a route with a name in it', async () => {
    expect(isRoute('/accounts/{id}/client/details')).toBe(true);
    expect(isRoute('/files/{id}/martinez')).toBe(false);
    expect(diagnosticsEntrySchema.safeParse(failedConfigPull('/files/{id}/{id}')).success).toBe(true);
    await expect(
      dispatch(reportHandlers(), 'diagnostics.report', [failedConfigPull('/files/{id}/martinez')]),
    ).rejects.toBeInstanceOf(InvalidBridgeCall);
  });
});
