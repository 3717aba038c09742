-- The auth kit's tables: better-auth 1.7's schema for the options in auth.ts, as its getMigrations
-- prints it, made idempotent, with role kept to the three roles. Dates are ISO text.
CREATE TABLE IF NOT EXISTS "auth_user" ("id" text not null primary key, "name" text not null, "email" text not null unique, "emailVerified" integer not null, "image" text, "createdAt" date not null, "updatedAt" date not null, "role" text not null default 'member' check ("role" in ('owner', 'admin', 'member')));

CREATE TABLE IF NOT EXISTS "auth_session" ("id" text not null primary key, "expiresAt" date not null, "token" text not null unique, "createdAt" date not null, "updatedAt" date not null, "ipAddress" text, "userAgent" text, "userId" text not null references "auth_user" ("id") on delete cascade);

CREATE TABLE IF NOT EXISTS "auth_account" ("id" text not null primary key, "accountId" text not null, "providerId" text not null, "userId" text not null references "auth_user" ("id") on delete cascade, "accessToken" text, "refreshToken" text, "idToken" text, "accessTokenExpiresAt" date, "refreshTokenExpiresAt" date, "scope" text, "password" text, "createdAt" date not null, "updatedAt" date not null);

CREATE TABLE IF NOT EXISTS "auth_verification" ("id" text not null primary key, "identifier" text not null, "value" text not null, "expiresAt" date not null, "createdAt" date not null, "updatedAt" date not null);

CREATE INDEX IF NOT EXISTS "auth_session_userId_idx" on "auth_session" ("userId");

CREATE INDEX IF NOT EXISTS "auth_account_userId_idx" on "auth_account" ("userId");

CREATE INDEX IF NOT EXISTS "auth_verification_identifier_idx" on "auth_verification" ("identifier");

-- The key of session cookies and e-mailed links when BETTER_AUTH_SECRET is not set (secret.ts).
CREATE TABLE IF NOT EXISTS "auth_secret" ("id" integer primary key check ("id" = 1), "value" text not null);
