// The platform's icon names (version 2 `/config/icons`: `i_user_plus` …) drawn with the icon font
// the app ships (PrimeIcons), the same wherever they show (pipeline stages, activities). Each name
// gets a glyph of its own where PrimeIcons has one; a name the map lacks still gets a neutral dot.

const ICONS: Readonly<Record<string, string>> = {
  i_archive: 'pi-box',
  i_award: 'pi-trophy',
  i_badge: 'pi-id-card',
  i_building: 'pi-building',
  i_bullseye: 'pi-bullseye',
  i_child: 'pi-user',
  i_coins: 'pi-wallet',
  i_comments: 'pi-comments',
  i_crown: 'pi-crown',
  i_diamond: 'pi-sparkles',
  i_dollar: 'pi-dollar',
  i_download: 'pi-download',
  i_engagement_check: 'pi-check-square',
  i_engagement_minus: 'pi-minus-circle',
  i_engagement_plus: 'pi-plus-circle',
  i_engagement_shield: 'pi-shield',
  i_engagement_tag: 'pi-tag',
  i_envelope: 'pi-envelope',
  i_female: 'pi-venus',
  i_globe: 'pi-globe',
  i_heart: 'pi-heart',
  i_lightbulb: 'pi-lightbulb',
  i_male: 'pi-mars',
  i_medal: 'pi-trophy',
  i_money: 'pi-money-bill',
  i_pen: 'pi-pencil',
  i_search: 'pi-search',
  i_spade: 'pi-hammer',
  i_star: 'pi-star',
  i_umbrella: 'pi-shield',
  i_upload: 'pi-upload',
  i_user: 'pi-user',
  i_user_check: 'pi-verified',
  i_user_clock: 'pi-clock',
  i_user_cog: 'pi-user-edit',
  i_user_friends: 'pi-users',
  i_user_graduate: 'pi-graduation-cap',
  i_user_lock: 'pi-lock',
  i_user_minus: 'pi-user-minus',
  i_user_plus: 'pi-user-plus',
  i_user_shield: 'pi-shield',
  i_user_slash: 'pi-ban',
  i_user_tag: 'pi-tag',
  i_user_tie: 'pi-briefcase',
  i_user_times: 'pi-times-circle',
  i_users: 'pi-users',
  i_users_cog: 'pi-cog',
};

/** The icon classes of a platform icon name. */
export function platformIcon(name: string | null | undefined): string {
  return `pi ${(name && ICONS[name]) || 'pi-circle-fill'}`;
}
