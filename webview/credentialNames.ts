import type { CredentialKind } from '../src/aep/credentials';
import { t } from './l10n';

/** The protocol core names the kind of credential it found in English; the page says it in the user's language. */
export function credentialName(kind: CredentialKind): string {
  switch (kind) {
    case 'private key': return t('private key');
    case 'PEM block': return t('PEM block');
    case 'AWS access key': return t('AWS access key');
    case 'GitHub token': return t('GitHub token');
    case 'GitLab token': return t('GitLab token');
    case 'Slack token': return t('Slack token');
    case 'OpenAI key': return t('OpenAI key');
    case 'Anthropic key': return t('Anthropic key');
    case 'Stripe key': return t('Stripe key');
    case 'Google API key': return t('Google API key');
    case 'npm token': return t('npm token');
    case 'PyPI token': return t('PyPI token');
    case 'Hugging Face token': return t('Hugging Face token');
    case 'SendGrid key': return t('SendGrid key');
    case 'Docker token': return t('Docker token');
    case 'Google OAuth token': return t('Google OAuth token');
    case 'Shopify token': return t('Shopify token');
    case 'DigitalOcean token': return t('DigitalOcean token');
    case 'Linear key': return t('Linear key');
    case 'Supabase token': return t('Supabase token');
    case 'AWS secret key': return t('AWS secret key');
    case 'JSON Web Token': return t('JSON Web Token');
    case 'bearer token': return t('bearer token');
    case 'Basic auth': return t('Basic auth');
    case 'authorization header': return t('authorization header');
    case 'connection string with password': return t('connection string with password');
    case 'password assignment': return t('password assignment');
    case 'key or token assignment': return t('key or token assignment');
    case 'field named like a credential': return t('field named like a credential');
    case 'configured secret': return t('configured secret');
  }
}
