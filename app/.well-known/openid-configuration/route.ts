// Authorization server metadata (RFC 8414): the same document at both well-known addresses.
import { metadataPreflight, metadataResponse } from '@/lib/oauth/metadata';

export const dynamic = 'force-dynamic';

export const GET = metadataResponse;
export const OPTIONS = metadataPreflight;
