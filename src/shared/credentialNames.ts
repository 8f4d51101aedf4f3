// The kind of credential found, in the user's language: the request page's
// send confirmation and the quick input's both name it with these words. Each
// side's bundle has its own `@vscode/l10n`, loaded with the same strings, and
// each kind is its own `l10n.t` call so the bundle export finds every one.
import * as l10n from '@vscode/l10n';
import type { CredentialKind } from '../aep/credentials';

/** The protocol core names the kind of credential it found in English; every surface says it in the user's language. */
export function credentialName(kind: CredentialKind): string {
  switch (kind) {
    case 'private key': return l10n.t('private key');
    case 'PEM block': return l10n.t('PEM block');
    case 'AWS access key': return l10n.t('AWS access key');
    case 'GitHub token': return l10n.t('GitHub token');
    case 'GitLab token': return l10n.t('GitLab token');
    case 'Slack token': return l10n.t('Slack token');
    case 'OpenAI key': return l10n.t('OpenAI key');
    case 'Anthropic key': return l10n.t('Anthropic key');
    case 'Stripe key': return l10n.t('Stripe key');
    case 'Google API key': return l10n.t('Google API key');
    case 'npm token': return l10n.t('npm token');
    case 'PyPI token': return l10n.t('PyPI token');
    case 'Hugging Face token': return l10n.t('Hugging Face token');
    case 'SendGrid key': return l10n.t('SendGrid key');
    case 'Docker token': return l10n.t('Docker token');
    case 'Google OAuth token': return l10n.t('Google OAuth token');
    case 'Shopify token': return l10n.t('Shopify token');
    case 'DigitalOcean token': return l10n.t('DigitalOcean token');
    case 'Linear key': return l10n.t('Linear key');
    case 'Supabase token': return l10n.t('Supabase token');
    case 'AWS secret key': return l10n.t('AWS secret key');
    case 'JSON Web Token': return l10n.t('JSON Web Token');
    case 'bearer token': return l10n.t('bearer token');
    case 'Basic auth': return l10n.t('Basic auth');
    case 'authorization header': return l10n.t('authorization header');
    case 'connection string with password': return l10n.t('connection string with password');
    case 'password assignment': return l10n.t('password assignment');
    case 'key or token assignment': return l10n.t('key or token assignment');
    case 'field named like a credential': return l10n.t('field named like a credential');
    case 'configured secret': return l10n.t('configured secret');
  }
}
