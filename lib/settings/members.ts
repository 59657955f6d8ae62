// Who a member can ask: the organisation's admins, named on the "ask an admin" page.
import { prisma } from '../db';

export async function listOrgAdmins(orgId: string): Promise<{ name: string; email: string }[]> {
  const rows = await prisma().membership.findMany({
    where: { orgId, role: 'admin' },
    select: { user: { select: { name: true, email: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((row) => row.user);
}
