import type { RouteObject } from 'react-router';
import { RequireAuth } from '@/app/require-auth.js';
import { RouteError } from '@/app/routes/route-error.js';
import { SiteLayout } from '@/components/layouts/site-layout.js';
import { PageSpinner } from '@/components/page-spinner.js';
import { paths } from '@/config/paths.js';

// Every page is its own chunk, loaded when first visited; the layout (header, footer) is not. The
// pages that only show content (landing, marketing, documentation, legal) load no data library.
export const routes: RouteObject[] = [
  {
    Component: SiteLayout,
    HydrateFallback: () => <PageSpinner label="Loading page" />,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('@/features/landing/routes/landing.js')).LandingRoute,
            }),
          },
          {
            // Every page that reads or sends data: the query library loads with the first of them.
            lazy: async () => ({ Component: (await import('@/app/query-scope.js')).QueryScope }),
            children: [
              {
                path: paths.auth,
                lazy: async () => ({ Component: (await import('@/features/auth/routes/auth.js')).AuthRoute }),
              },
              {
                path: paths.signIn,
                lazy: async () => ({
                  Component: (await import('@/features/auth/routes/sign-in.js')).SignInRoute,
                }),
              },
              {
                path: paths.signUp,
                lazy: async () => ({
                  Component: (await import('@/features/auth/routes/sign-up.js')).SignUpRoute,
                }),
              },
              {
                path: paths.resetPassword,
                lazy: async () => ({
                  Component: (await import('@/features/auth/routes/reset-password.js')).ResetPasswordRoute,
                }),
              },
              {
                Component: RequireAuth,
                children: [
                  {
                    path: paths.trading,
                    lazy: async () => ({
                      Component: (await import('@/features/trading/routes/trading.js')).TradingRoute,
                    }),
                  },
                  {
                    path: paths.tradingDeal,
                    lazy: async () => ({
                      Component: (await import('@/features/trading/routes/deal-details.js')).DealDetailsRoute,
                    }),
                  },
                  {
                    path: paths.apiKeys,
                    lazy: async () => ({
                      Component: (await import('@/features/api-keys/routes/api-keys.js')).ApiKeysRoute,
                    }),
                  },
                  {
                    path: paths.kyc,
                    lazy: async () => ({
                      Component: (await import('@/features/kyc/routes/kyc.js')).KycRoute,
                    }),
                  },
                  {
                    // Every staff page: traders get 403, staff without a second factor in this session enter one.
                    lazy: async () => ({
                      Component: (await import('@/features/account-security/components/staff-gate.js'))
                        .StaffGate,
                    }),
                    children: [
                      {
                        path: paths.staffKyc,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-kyc/routes/staff-kyc.js')).StaffKycRoute,
                        }),
                      },
                      {
                        path: paths.staffInbox,
                        lazy: async () => ({
                          Component: (await import('@/features/staff/routes/inbox.js')).InboxRoute,
                        }),
                      },
                      {
                        path: paths.staffChat,
                        lazy: async () => ({
                          Component: (await import('@/features/live-chat/routes/staff-chat.js'))
                            .StaffChatRoute,
                        }),
                      },
                      {
                        path: paths.staffDisputes,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-disputes/routes/disputes.js'))
                            .StaffDisputesRoute,
                        }),
                      },
                      {
                        path: paths.staffDispute,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-disputes/routes/dispute.js'))
                            .StaffDisputeRoute,
                        }),
                      },
                      {
                        path: paths.staffAlerts,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-alerts/routes/staff-alerts.js'))
                            .StaffAlertsRoute,
                        }),
                      },
                      {
                        path: paths.staffDeals,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-deals/routes/staff-deals.js'))
                            .StaffDealsRoute,
                        }),
                      },
                      {
                        path: paths.staffDeal,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-deals/routes/staff-deal.js'))
                            .StaffDealRoute,
                        }),
                      },
                      {
                        path: paths.staffTravel,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-travel/routes/staff-travel.js'))
                            .StaffTravelRoute,
                        }),
                      },
                      {
                        path: paths.staffUsers,
                        lazy: async () => ({
                          Component: (await import('@/features/staff-users/routes/staff-users.js'))
                            .StaffUsersRoute,
                        }),
                      },
                      {
                        path: paths.staffInboxMessage,
                        lazy: async () => ({
                          Component: (await import('@/features/staff/routes/inbox-message.js'))
                            .InboxMessageRoute,
                        }),
                      },
                    ],
                  },
                  {
                    path: paths.accountSecurity,
                    lazy: async () => ({
                      Component: (await import('@/features/account-security/routes/account-security.js'))
                        .AccountSecurityRoute,
                    }),
                  },
                  {
                    path: paths.matchingSettings,
                    lazy: async () => ({
                      Component: (await import('@/features/trading/routes/matching-settings.js'))
                        .MatchingSettingsRoute,
                    }),
                  },
                  {
                    path: paths.escrowKey,
                    lazy: async () => ({
                      Component: (await import('@/features/escrow-key/routes/escrow-key.js')).EscrowKeyRoute,
                    }),
                  },
                ],
              },
              {
                path: paths.apiReference,
                lazy: async () => ({
                  Component: (await import('@/features/developers/routes/api-reference.js'))
                    .ApiReferenceRoute,
                }),
              },
              {
                path: paths.helpCenter,
                lazy: async () => ({
                  Component: (await import('@/features/support/routes/help-center.js')).HelpCenterRoute,
                }),
              },
              {
                path: paths.contact,
                lazy: async () => ({
                  Component: (await import('@/features/support/routes/contact.js')).ContactRoute,
                }),
              },
              {
                // Reached only when the server did not answer the path itself (see the page).
                path: paths.devMailbox,
                lazy: async () => ({
                  Component: (await import('@/features/dev-mailbox/routes/dev-mailbox.js')).DevMailboxRoute,
                }),
              },
              {
                path: paths.devMailboxMessage,
                lazy: async () => ({
                  Component: (await import('@/features/dev-mailbox/routes/dev-mailbox.js')).DevMailboxRoute,
                }),
              },
            ],
          },
          {
            path: paths.features,
            lazy: async () => ({
              Component: (await import('@/features/marketing/routes/features.js')).FeaturesRoute,
            }),
          },
          {
            path: paths.security,
            lazy: async () => ({
              Component: (await import('@/features/marketing/routes/security.js')).SecurityRoute,
            }),
          },
          {
            path: paths.howItWorks,
            lazy: async () => ({
              Component: (await import('@/features/marketing/routes/how-it-works.js')).HowItWorksRoute,
            }),
          },
          {
            path: paths.meet,
            lazy: async () => ({
              Component: (await import('@/features/marketing/routes/meet.js')).MeetRoute,
            }),
          },
          {
            path: paths.documentation,
            lazy: async () => ({
              Component: (await import('@/features/developers/routes/documentation.js')).DocumentationRoute,
            }),
          },
          {
            path: paths.privacyPolicy,
            lazy: async () => ({
              Component: (await import('@/features/legal/routes/privacy-policy.js')).PrivacyPolicyRoute,
            }),
          },
          {
            path: paths.termsOfService,
            lazy: async () => ({
              Component: (await import('@/features/legal/routes/terms-of-service.js')).TermsOfServiceRoute,
            }),
          },
          {
            path: paths.compliance,
            lazy: async () => ({
              Component: (await import('@/features/legal/routes/compliance.js')).ComplianceRoute,
            }),
          },
          {
            path: paths.riskDisclosure,
            lazy: async () => ({
              Component: (await import('@/features/legal/routes/risk-disclosure.js')).RiskDisclosureRoute,
            }),
          },
          {
            path: '*',
            lazy: async () => ({ Component: (await import('@/app/routes/not-found.js')).NotFoundRoute }),
          },
        ],
      },
    ],
  },
];
